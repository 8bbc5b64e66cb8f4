import { z } from "zod";
import { clinicParam } from "../../contract/params.ts";
import { authedProcedure, publicProcedure, router } from "../../trpc/trpc.ts";
import { acceptTerms, hasAcceptedTerms, termsDocumentUrl } from "./terms.service.ts";

export const termsRouter = router({
  documentUrl: publicProcedure.input(z.object({ clinic: clinicParam })).query(({ input }) => termsDocumentUrl(input.clinic)),
  accept: authedProcedure.mutation(async ({ ctx }) => (await acceptTerms(ctx.deps, ctx.user, ctx.meta)).toISOString()),
  status: authedProcedure.query(({ ctx }) => hasAcceptedTerms(ctx.user)),
});
