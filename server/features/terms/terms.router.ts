import { z } from "zod";
import { clinicParam } from "../../contract/params.ts";
import { firstLoginProcedure, publicProcedure, router } from "../../trpc/trpc.ts";
import { acceptTerms, hasAcceptedTerms, termsDocumentUrl } from "./terms.service.ts";

export const termsRouter = router({
  documentUrl: publicProcedure.input(z.object({ clinic: clinicParam })).query(({ input }) => termsDocumentUrl(input.clinic)),
  accept: firstLoginProcedure.mutation(async ({ ctx }) => (await acceptTerms(ctx.deps, ctx.user, ctx.meta)).toISOString()),
  status: firstLoginProcedure.query(({ ctx }) => hasAcceptedTerms(ctx.user)),
});
