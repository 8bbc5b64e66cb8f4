import { z } from "zod";
import { actingPatientProcedure, router } from "../../trpc/trpc.ts";
import { getAnalyteSeries, getLabOrder, listLabOrders } from "./laboratory.service.ts";

/** tRPC over the same service as REST /orders (access: patient). */
export const laboratoryRouter = router({
  orders: actingPatientProcedure("resultados", "lab.orders.list")
    .input(z.object({ fecha_inicio: z.string().max(20), fecha_termino: z.string().max(20), refresh: z.boolean().optional() }))
    .query(({ ctx, input }) => listLabOrders(ctx.deps, ctx.user, input, ctx.meta, { refresh: input.refresh ?? false })),
  order: actingPatientProcedure("resultados", "lab.order.read")
    .input(z.object({ orderNumber: z.string().max(30) }))
    .query(({ ctx, input }) => getLabOrder(ctx.deps, ctx.user, input.orderNumber, ctx.meta)),
  series: actingPatientProcedure("resultados", "lab.analyte.series")
    .input(z.object({ code: z.string().max(40) }))
    .query(({ ctx, input }) => getAnalyteSeries(ctx.deps, ctx.user, input.code, ctx.meta)),
});
