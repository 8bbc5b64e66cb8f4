import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { parseInput } from "../../http/validate.ts";
import { imagingReportUrl, imagingViewerUrl, listImagingOrders } from "./imaging.service.ts";

const ZClinicQuery = z.object({ clinic: z.string().trim().max(60).optional() });

/** REST /api/rcr/v1/orders-imaging (SPEC §7): the signed-in patient's imaging studies, viewer and report links. */
export async function imagingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/orders-imaging", { config: { access: "patient" } }, async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listImagingOrders(deps, user, request.query, requestMeta(request)) };
  });

  app.get<{ Params: { accessionNumber: string } }>(
    "/orders-imaging/pdf/:accessionNumber",
    { config: { access: "patient" } },
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      parseInput(ZClinicQuery, request.query);
      return { payload: await imagingReportUrl(deps, user, request.params.accessionNumber, requestMeta(request)) };
    },
  );

  app.get<{ Params: { accessionNumber: string } }>(
    "/orders-imaging/:accessionNumber",
    { config: { access: "patient" } },
    async (request) => {
      const user = await requireUser(deps, request.headers.authorization);
      parseInput(ZClinicQuery, request.query);
      return { payload: await imagingViewerUrl(deps, user, request.params.accessionNumber, requestMeta(request)) };
    },
  );
}
