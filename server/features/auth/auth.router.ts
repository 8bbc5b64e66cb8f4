import { z } from "zod";
import { authedProcedure, publicProcedure, router, secondFactorProcedure } from "../../trpc/trpc.ts";
import { ZSessionIdInput } from "../../contract/second-factor.ts";
import { confirmEnrolment, secondFactorStatus, startEnrolment, verifySecondFactor } from "./second-factor.service.ts";
import { endOtherOwnSessions, endOwnSession, listSessions } from "./sessions.service.ts";
import { login, logout, sessionRefusal, validateToken, ZLoginInput } from "./auth.service.ts";
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
  /** What a refused token is told (issue 45 §3): its session ended from another device, or the general 401 message. */
  sessionRefusal: publicProcedure.query(({ ctx }) => sessionRefusal(ctx.deps, ctx.authorization)),
  logout: secondFactorProcedure.mutation(({ ctx }) => logout(ctx.deps, ctx.user, ctx.meta)),
  /** The login's second step (REST POST /auth/verify-otp); the service validates the code. */
  verifyOtp: secondFactorProcedure.input(z.object({ code: z.unknown() })).mutation(async ({ ctx, input }) => {
    const { session, deviceCookie } = await verifySecondFactor(ctx.deps, ctx.user, input, ctx.meta);
    ctx.setDeviceCookie?.(deviceCookie);
    return session;
  }),
  secondFactorStatus: authedProcedure.query(({ ctx }) => secondFactorStatus(ctx.deps, ctx.user)),
  startSecondFactor: authedProcedure.mutation(({ ctx }) => startEnrolment(ctx.deps, ctx.user)),
  confirmSecondFactor: authedProcedure
    .input(z.object({ code: z.unknown() }))
    .mutation(({ ctx, input }) => confirmEnrolment(ctx.deps, ctx.user, input, ctx.meta)),
  sessions: authedProcedure.query(({ ctx }) => listSessions(ctx.deps, ctx.user)),
  endSession: authedProcedure.input(ZSessionIdInput).mutation(({ ctx, input }) => endOwnSession(ctx.deps, ctx.user, input, ctx.meta)),
  endOtherSessions: authedProcedure.mutation(({ ctx }) => endOtherOwnSessions(ctx.deps, ctx.user, ctx.meta)),
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
