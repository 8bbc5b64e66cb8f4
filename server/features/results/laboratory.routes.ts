import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { z } from "zod";
import { getAnalyteSeries, getLabOrder, listLabOrders, ZAnalyteCode, ZOrderNumber, ZOrdersQuery } from "./laboratory.service.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZAnalyteSeriesDto, ZLabOrderDetailDto, ZLabOrderDto } from "../../contract/results.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { access } from "../../http/route-access.ts";

const tag = "Laboratorio";
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  list: {
    tag,
    summary: "Órdenes de laboratorio del paciente entre dos fechas (dd/mm/yyyy)",
    querystring: ZOrdersQuery,
    response: payloadOf(z.array(ZLabOrderDto)),
    errors: [502, 504],
  },
  get: {
    tag,
    summary: "Detalle de una orden: prestaciones y enlace al informe PDF",
    params: z.object({ orderNumber: ZOrderNumber }),
    response: payloadOf(ZLabOrderDetailDto),
    errors: [502, 504],
  },
  series: {
    tag,
    summary: "Evolución de un examen (código LOINC) en todas las órdenes del paciente, con su rango de referencia",
    params: z.object({ code: ZAnalyteCode }),
    response: payloadOf(ZAnalyteSeriesDto),
    errors: [404, 502, 504],
  },
} satisfies Record<string, RouteDocs>;

/** REST /api/rcr/v1/orders (SPEC §7): the signed-in patient's laboratory orders. */
export async function laboratoryRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/orders", access("patient", docs.list, { caregiverPart: "resultados" }), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listLabOrders(deps, user, request.query, requestMeta(request)) };
  });

  app.get<{ Params: { orderNumber: string } }>(
    "/orders/:orderNumber",
    access("patient", docs.get, { caregiverPart: "resultados" }),
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      return { payload: await getLabOrder(deps, user, request.params.orderNumber, requestMeta(request)) };
    },
  );

  app.get<{ Params: { code: string } }>(
    "/orders/analytes/:code/series",
    access("patient", docs.series, { caregiverPart: "resultados" }),
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      return { payload: await getAnalyteSeries(deps, user, request.params.code, requestMeta(request)) };
    },
  );
}
