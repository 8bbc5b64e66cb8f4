import { z } from "zod";
import { router } from "../../trpc/trpc.ts";
import { patientProcedure } from "../../trpc/trpc.ts";
import { mailReport } from "./reports.service.ts";

/** tRPC 'Enviar por email' over the same service as REST mail/mailValtek (access: patient). */
export const reportsRouter = router({
  mail: patientProcedure
    .input(z.object({ documentLink: z.string().max(2000), clinic: z.string().max(60).optional() }))
    .mutation(({ ctx, input }) => mailReport(ctx.deps, ctx.user, input, ctx.meta)),
});
