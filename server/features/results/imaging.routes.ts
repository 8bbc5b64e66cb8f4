import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { imagingReportUrl, imagingViewerUrl, listImagingOrders, ZAccessionNumber, ZImagingQuery } from "./imaging.service.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZImagingOrderDto } from "../../contract/results.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { access } from "../../http/route-access.ts";

const tag = "Imagenología";
const byAccession = z.object({ accessionNumber: ZAccessionNumber });
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  list: {
    tag,
    summary: "Exámenes de imagenología del paciente entre dos fechas",
    querystring: ZImagingQuery,
    response: payloadOf(z.array(ZImagingOrderDto)),
    errors: [502, 504],
  },
  report: {
    tag,
    summary: "Enlace firmado al informe PDF de un examen",
    params: byAccession,
    response: payloadOf(z.string().describe("Dirección del informe PDF")),
    errors: [502, 504],
  },
  viewer: {
    tag,
    summary: "Dirección del visor de imágenes de un examen",
    params: byAccession,
    response: payloadOf(z.string().describe("Dirección del visor")),
    errors: [502, 504],
  },
} satisfies Record<string, RouteDocs>;

/** REST /api/rcr/v1/orders-imaging (SPEC §7): the signed-in patient's imaging studies, viewer and report links. */
export async function imagingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/orders-imaging", access("patient", docs.list, { caregiverPart: "resultados" }), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listImagingOrders(deps, user, request.query, requestMeta(request)) };
  });

  app.get<{ Params: { accessionNumber: string } }>(
    "/orders-imaging/pdf/:accessionNumber",
    access("patient", docs.report, { caregiverPart: "resultados" }),
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      return { payload: await imagingReportUrl(deps, user, request.params.accessionNumber, requestMeta(request)) };
    },
  );

  app.get<{ Params: { accessionNumber: string } }>(
    "/orders-imaging/:accessionNumber",
    access("patient", docs.viewer, { caregiverPart: "resultados" }),
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      return { payload: await imagingViewerUrl(deps, user, request.params.accessionNumber, requestMeta(request)) };
    },
  );
}
