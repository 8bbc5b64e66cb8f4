import { z } from "zod";
import { Role } from "../../contract/roles.ts";
import { authedProcedure, router } from "../../trpc/trpc.ts";
import { getPrivileges, setPrivileges } from "./privileges.service.ts";
import { createUserAccount } from "./user-create.service.ts";
import { deny, denyNonStaff, type UsersAction } from "./users-access.ts";
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

// Staff guards whose refusal is written to the audit trail (denied attempts are audited)
// and it runs before the input is parsed, so a patient gets 403 whatever they send. The services check again.
const staff = (action: UsersAction) =>
  authedProcedure.meta({ access: "staff" }).use(async ({ ctx, next }) => {
    await denyNonStaff(ctx.deps, ctx.user, ctx.meta, action);
    return next();
  });

const admin = (action: UsersAction, message: string) =>
  staff(action)
    .meta({ access: "admin" })
    .use(async ({ ctx, next }) => {
      if (ctx.user.roleType !== Role.admin) await deny(ctx.deps, ctx.user, ctx.meta, { action }, message);
      return next();
    });

const ZId = z.object({ id: ZUserId });

/** tRPC `users.*`: the same services as REST /admin/* (SPEC §7 Users), for the React staff screens. */
export const usersRouter = router({
  list: staff("user.list")
    .input(ZListUsersInput)
    .query(({ ctx, input }) => listUsers(ctx.deps, ctx.user, input, ctx.meta)),
  get: staff("user.read")
    .input(ZId)
    .query(({ ctx, input }) => getUser(ctx.deps, ctx.user, input.id, ctx.meta)),
  update: staff("user.update")
    .input(ZUpdateUserInput.extend({ id: ZUserId }))
    .mutation(({ ctx, input: { id, ...changes } }) => updateUser(ctx.deps, ctx.user, id, changes, ctx.meta)),
  create: staff("user.create")
    .input(ZCreateUserInput)
    .mutation(({ ctx, input }) => createUserAccount(ctx.deps, ctx.user, input, ctx.meta)),
  resetPassword: staff("user.password-reset")
    .input(ZStaffResetPasswordInput)
    .mutation(({ ctx, input }) => resetUserPassword(ctx.deps, ctx.user, input, ctx.meta)),
  privileges: staff("user.privileges.read")
    .input(ZId)
    .query(({ ctx, input }) => getPrivileges(ctx.deps, ctx.user, input.id, ctx.meta)),
  setPrivileges: admin("user.privileges.update", userMessages.onlyAdminPrivileges)
    .input(ZSetPrivilegesInput)
    .mutation(({ ctx, input }) => setPrivileges(ctx.deps, ctx.user, input, ctx.meta)),
  clinics: staff("clinic.list").query(({ ctx }) => listClinics(ctx.deps, ctx.user, ctx.meta)),
});
