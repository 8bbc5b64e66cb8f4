import { z } from "zod";
import { firstLoginProcedure, publicProcedure, router } from "../../trpc/trpc.ts";
import { login, logout, validateToken, ZLoginInput } from "./auth.service.ts";
import { requestPasswordReset, resetPassword, ZNewPasswordInput, ZResetRequestInput } from "./password-reset.service.ts";

// The service validates the credentials (Spanish messages); here only their presence as keys is loose.
const ZLoginRequest = z.object({ portal: z.enum(["patient", "staff"]), ...ZLoginInput.shape });

export const authRouter = router({
  login: publicProcedure.input(ZLoginRequest).mutation(async ({ ctx, input: { portal, ...credentials } }) => {
    const { session, deviceCookie } = await login(ctx.deps, credentials, portal, ctx.meta);
    ctx.setDeviceCookie?.(deviceCookie);
    return session;
  }),
  validateToken: publicProcedure.query(({ ctx }) => validateToken(ctx.deps, ctx.authorization)),
  logout: firstLoginProcedure.mutation(({ ctx }) => logout(ctx.deps, ctx.user, ctx.meta)),
  requestPasswordReset: publicProcedure.input(ZResetRequestInput).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(ctx.deps, input, ctx.meta);
    return true;
  }),
  resetPassword: publicProcedure
    .input(ZNewPasswordInput.extend({ token: z.string().max(200) }))
    .mutation(async ({ ctx, input: { token, ...rest } }) => {
      await resetPassword(ctx.deps, token, rest, ctx.meta);
      return true;
    }),
});
