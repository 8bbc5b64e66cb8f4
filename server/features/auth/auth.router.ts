import { z } from "zod";
import { publicProcedure, router } from "../../trpc/trpc.ts";
import { login, requestPasswordReset, resetPassword, validateToken } from "./auth.service.ts";

const ZLoginRequest = z.object({ portal: z.enum(["patient", "staff"]), rut: z.unknown(), password: z.unknown(), clinic: z.unknown().optional() });

export const authRouter = router({
  login: publicProcedure.input(ZLoginRequest).mutation(({ ctx, input: { portal, ...credentials } }) => login(ctx.deps, credentials, portal, ctx.meta)),
  validateToken: publicProcedure.query(({ ctx }) => validateToken(ctx.deps, ctx.authorization)),
  requestPasswordReset: publicProcedure
    .input(z.object({ rut: z.unknown(), rcrLink: z.unknown().optional() }))
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx.deps, input, ctx.meta, ctx.log);
      return true;
    }),
  resetPassword: publicProcedure
    .input(z.object({ token: z.string().max(200), rut: z.unknown(), password: z.unknown(), passwordConfirmation: z.unknown() }))
    .mutation(async ({ ctx, input: { token, ...rest } }) => {
      await resetPassword(ctx.deps, token, rest, ctx.meta);
      return true;
    }),
});
