import { firstLoginProcedure, router } from "../../trpc/trpc.ts";
import { changeOwnPassword, getOwnAccount, updateOwnProfile, ZChangePasswordInput, ZProfileInput } from "./account.service.ts";

// Inputs are typed for the client but validated by the service, so REST and tRPC answer the same Spanish messages.
/** tRPC for the caller's own account ('Mi cuenta'); the same service functions as /auth/me, /auth/user-edit, /auth/change-password-user. */
export const accountRouter = router({
  me: firstLoginProcedure.query(({ ctx }) => getOwnAccount(ctx.user)),
  updateProfile: firstLoginProcedure
    .input(ZProfileInput)
    .mutation(({ ctx, input }) => updateOwnProfile(ctx.deps, ctx.user, input, ctx.meta)),
  changePassword: firstLoginProcedure
    .input(ZChangePasswordInput)
    .mutation(({ ctx, input }) => changeOwnPassword(ctx.deps, ctx.user, input, ctx.meta)),
});
