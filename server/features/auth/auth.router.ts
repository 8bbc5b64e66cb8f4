import { z } from "zod";
import { publicProcedure, router } from "../../trpc/trpc.ts";
import { login, validateToken } from "./auth.service.ts";
import { requestPasswordReset, resetPassword } from "./password-reset.service.ts";

// The service validates the credentials (Spanish messages); here only their presence as keys is loose.
const ZLoginRequest = z.object({
  portal: z.enum(["patient", "staff"]),
  rut: z.unknown().optional(),
  password: z.unknown().optional(),
  clinic: z.unknown().optional(),
});

export const authRouter = router({
  login: publicProcedure
    .input(ZLoginRequest)
    .mutation(({ ctx, input: { portal, ...credentials } }) => login(ctx.deps, credentials, portal, ctx.meta)),
  validateToken: publicProcedure.query(({ ctx }) => validateToken(ctx.deps, ctx.authorization)),
  requestPasswordReset: publicProcedure
    .input(z.object({ rut: z.unknown().optional(), rcrLink: z.unknown().optional() }))
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx.deps, input, ctx.meta);
      return true;
    }),
  resetPassword: publicProcedure
    .input(
      z.object({
        token: z.string().max(200),
        rut: z.unknown().optional(),
        password: z.unknown().optional(),
        passwordConfirmation: z.unknown().optional(),
      }),
    )
    .mutation(async ({ ctx, input: { token, ...rest } }) => {
      await resetPassword(ctx.deps, token, rest, ctx.meta);
      return true;
    }),
});
