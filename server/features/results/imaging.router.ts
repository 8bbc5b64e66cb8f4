import { z } from "zod";
import { actingPatientProcedure, router } from "../../trpc/trpc.ts";
import { imagingReportUrl, imagingViewerUrl, listImagingOrders } from "./imaging.service.ts";

/** tRPC over the same service as REST /orders-imaging (access: patient). */
export const imagingRouter = router({
  studies: actingPatientProcedure("resultados", "imaging.studies.list")
    .input(z.object({ dateFrom: z.string().max(20), dateTo: z.string().max(20), refresh: z.boolean().optional() }))
    .query(({ ctx, input }) => listImagingOrders(ctx.deps, ctx.user, input, ctx.meta, { refresh: input.refresh ?? false })),
  viewerUrl: actingPatientProcedure("resultados", "imaging.viewer.open")
    .input(z.object({ accessionNumber: z.string().max(16) }))
    .query(({ ctx, input }) => imagingViewerUrl(ctx.deps, ctx.user, input.accessionNumber, ctx.meta)),
  reportUrl: actingPatientProcedure("resultados", "imaging.report.link")
    .input(z.object({ accessionNumber: z.string().max(16) }))
    .query(({ ctx, input }) => imagingReportUrl(ctx.deps, ctx.user, input.accessionNumber, ctx.meta)),
});
