import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role } from "../../contract/roles.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { acceptablePassword, storeNewPassword } from "../../lib/password-change.ts";
import { clearRutFailures } from "../../lib/login-throttle.ts";
import type { UserDetailDto } from "../../contract/users.dto.ts";
import { updateUser as writeUser } from "../../db/users.repository.ts";
import { deny, requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { auditSnapshot, findVisibleUser, requireEditable, targetUserSelect, toUserDetailDto } from "./users-scope.ts";
import { userMessages, ZStaffResetPasswordInput, ZUpdateUserInput, ZUserId } from "./users.schemas.ts";
import { announceRowChange } from "../../db/row-changes.ts";
import { emailChangedNotice, passwordSetByStaffNotice, sendAccountNotice } from "../../lib/account-notices.ts";
import { dayToDate } from "../../contract/days.ts";

/**
 * PATCH /admin/:id (staff edit of personal data and, for admins, the role type). Saving any role other than
 * executive (1) removes the user's clinic privileges in the same transaction (SPEC §4 Edit user).
 * Throws BAD_REQUEST for invalid data (Spanish rule messages), NOT_FOUND for a missing or out-of-scope user,
 * FORBIDDEN (audited) when an executive edits staff or changes a role, or an admin changes their own role.
 */
export async function updateUser(deps: AppDeps, user: SessionUser, id: unknown, input: unknown, meta: RequestMeta): Promise<UserDetailDto> {
  const action = "user.update";
  const actor = await requireStaffActor(deps, user, meta, action);
  const userId = parseInput(ZUserId, id);
  const changes = parseInput(ZUpdateUserInput, input);
  const target = await findVisibleUser(deps, actor, meta, action, { id: userId });
  await requireEditable(deps, actor, meta, action, target);

  // A role equal to the current one (the edit form sends the whole user) is not a change.
  const { roleType, birthDate, ...personal } = changes;
  const roleChanges = roleType !== undefined && roleType !== target.roleType;
  if (roleChanges && !actor.isAdmin)
    await deny(deps, user, meta, { action, target, after: { roleType } }, userMessages.onlyAdminChangesRole);
  if (roleChanges && target.id === user.id) await deny(deps, user, meta, { action, target, after: { roleType } }, userMessages.ownRole);

  const before = toUserDetailDto(target);
  const newRole = roleType ?? target.roleType;
  const updated = await deps.prisma.$transaction(async (tx) => {
    if (newRole !== Role.executive) {
      const removed = await tx.privilege.deleteMany({ where: { userId: target.id } });
      // Only a real change: any announcement drops the user list's totals on every instance.
      if (removed.count > 0) announceRowChange("Privilege", target.id);
    }
    return writeUser(
      tx,
      target,
      {
        ...personal,
        ...(birthDate === undefined ? {} : { birthDate: birthDate === null ? null : dayToDate(birthDate) }),
        roleType: newRole,
      },
      targetUserSelect,
    );
  });
  const after = toUserDetailDto(updated);
  await audit(deps, user, meta, { action, target: updated, before: auditSnapshot(before), after: auditSnapshot(after) });
  if (before.email !== after.email)
    sendAccountNotice(deps, emailChangedNotice(before.email, after.email, { byStaff: true }), "email-change");
  return after;
}

/**
 * POST /admin/resetPassword: staff set a new password for the user with that RUT (SPEC §5 rule, not a common
 * password). Every token of that user stops working, failed-login counters of the RUT are cleared, and
 * hasChangedPassword becomes false so the user chooses their own password at the next login.
 * Throws BAD_REQUEST, NOT_FOUND (missing or out of scope), FORBIDDEN (executive resetting staff).
 */
export async function resetUserPassword(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<true> {
  const action = "user.password-reset";
  const actor = await requireStaffActor(deps, user, meta, action);
  const { rut, password, passwordConfirmation } = parseInput(ZStaffResetPasswordInput, input);
  const newPassword = acceptablePassword({ password, passwordConfirmation });
  const target = await findVisibleUser(deps, actor, meta, action, { rut: normalizeRut(rut) });
  await requireEditable(deps, actor, meta, action, target);

  await deps.prisma.$transaction((tx) => storeNewPassword(tx, target.id, newPassword, { hasChangedPassword: false }));
  await clearRutFailures(deps, target.rut);
  await audit(deps, user, meta, {
    action,
    target,
    before: { hasChangedPassword: target.hasChangedPassword },
    after: { hasChangedPassword: false, sessionsRevoked: true },
  });
  sendAccountNotice(deps, passwordSetByStaffNotice(target.email), "password-set-by-staff");
  return true;
}
