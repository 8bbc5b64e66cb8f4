import { z } from "zod";
import { router } from "../../trpc/trpc.ts";
import { patientProcedure } from "../../trpc/trpc.ts";
import { latestResults } from "./latest-results.service.ts";
import { mailReport } from "./reports.service.ts";

/** tRPC 'Enviar por email' over the same service as REST mail/mailValtek, and the newest results of 'Mi cuenta' (issue 33); access: patient. */
export const reportsRouter = router({
  mail: patientProcedure
    .input(z.object({ documentLink: z.string().max(2000), clinic: z.string().max(60).optional() }))
    .mutation(({ ctx, input }) => mailReport(ctx.deps, ctx.user, input, ctx.meta)),
  latest: patientProcedure.query(({ ctx }) => latestResults(ctx.deps, ctx.user, ctx.meta)),
});
