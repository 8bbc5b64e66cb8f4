import { z } from "zod";
import { adminProcedure, router, staffProcedure } from "../../trpc/trpc.ts";
import { ZSecondFactorResetInput } from "../../contract/second-factor.ts";
import { resetSecondFactor } from "./second-factor-reset.service.ts";
import { sendUserResetLink, ZSendResetLinkInput } from "./user-reset-link.service.ts";
import { getPrivileges, setPrivileges } from "./privileges.service.ts";
import { createUserAccount } from "./user-create.service.ts";
import { resetUserPassword, updateUser } from "./users-admin.service.ts";
import { getUser, listClinics, listUsers } from "./users-query.service.ts";
import {
  userMessages,
  ZCreateUserInput,
  ZListUsersInput,
  ZSetPrivilegesInput,
  ZStaffResetPasswordInput,
  ZUpdateUserInput,
  ZUserId,
} from "./users.schemas.ts";

const ZId = z.object({ id: ZUserId });

/** tRPC `users.*`: the same services as REST /admin/* (SPEC §7 Users), for the React staff screens. */
export const usersRouter = router({
  list: staffProcedure("user.list")
    .input(ZListUsersInput)
    .query(({ ctx, input }) => listUsers(ctx.deps, ctx.user, input, ctx.meta)),
  get: staffProcedure("user.read")
    .input(ZId)
    .query(({ ctx, input }) => getUser(ctx.deps, ctx.user, input.id, ctx.meta)),
  update: staffProcedure("user.update")
    .input(ZUpdateUserInput.extend({ id: ZUserId }))
    .mutation(({ ctx, input: { id, ...changes } }) => updateUser(ctx.deps, ctx.user, id, changes, ctx.meta)),
  create: staffProcedure("user.create")
    .input(ZCreateUserInput)
    .mutation(({ ctx, input }) => createUserAccount(ctx.deps, ctx.user, input, ctx.meta)),
  resetPassword: staffProcedure("user.password-reset")
    .input(ZStaffResetPasswordInput)
    .mutation(({ ctx, input }) => resetUserPassword(ctx.deps, ctx.user, input, ctx.meta)),
  /** Issue 33: e-mails the user the password-recovery link (REST has no such call in SPEC §7; tRPC only). */
  sendResetLink: staffProcedure("user.password-reset-link")
    .input(ZSendResetLinkInput)
    .mutation(({ ctx, input }) => sendUserResetLink(ctx.deps, ctx.user, input, ctx.meta)),
  privileges: staffProcedure("user.privileges.read")
    .input(ZId)
    .query(({ ctx, input }) => getPrivileges(ctx.deps, ctx.user, input.id, ctx.meta)),
  setPrivileges: adminProcedure("user.privileges.update", userMessages.onlyAdminPrivileges)
    .input(ZSetPrivilegesInput)
    .mutation(({ ctx, input }) => setPrivileges(ctx.deps, ctx.user, input, ctx.meta)),
  resetSecondFactor: adminProcedure("user.second-factor-reset", "Solo un administrador puede restablecer la verificación en dos pasos")
    .input(ZSecondFactorResetInput)
    .mutation(({ ctx, input }) => resetSecondFactor(ctx.deps, ctx.user, input, ctx.meta)),
  clinics: staffProcedure("clinic.list").query(({ ctx }) => listClinics(ctx.deps, ctx.user, ctx.meta)),
});
