import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { parseInput } from "../../http/validate.ts";
import { z } from "zod";
import { getLabOrder, listLabOrders } from "./laboratory.service.ts";

const ZClinicQuery = z.object({ clinic: z.string().trim().max(60).optional() });

/** REST /api/rcr/v1/orders (SPEC §7): the signed-in patient's laboratory orders. */
export async function laboratoryRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/orders", { config: { access: "patient" } }, async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listLabOrders(deps, user, request.query, requestMeta(request)) };
  });

  app.get<{ Params: { orderNumber: string } }>("/orders/:orderNumber", { config: { access: "patient" } }, async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    parseInput(ZClinicQuery, request.query);
    return { payload: await getLabOrder(deps, user, request.params.orderNumber, requestMeta(request)) };
  });
}
