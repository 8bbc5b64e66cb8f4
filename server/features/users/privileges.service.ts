import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role } from "../../contract/roles.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import { toPrivilegeDto, type PrivilegeDto } from "../../contract/users.dto.ts";
import { requireAdmin, requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { findVisibleUser, toUserDetailDto } from "./users-scope.ts";
import { userMessages, ZSetPrivilegesInput, ZUserId } from "./users.schemas.ts";
import { announceRowChange } from "../../db/row-changes.ts";

/**
 * GET /admin/privileges/:id: the user's clinic privileges ({id_clinic, codeClinicStr, id_permission, id_user}).
 * Throws NOT_FOUND for a missing user or one outside an executive's clinics, BAD_REQUEST for a bad id.
 */
export async function getPrivileges(deps: AppDeps, user: SessionUser, id: unknown, meta: RequestMeta): Promise<PrivilegeDto[]> {
  const action = "user.privileges.read";
  const actor = await requireStaffActor(deps, user, meta, action);
  const userId = parseInput(ZUserId, id);
  const target = await findVisibleUser(deps, actor, meta, action, { id: userId });
  await audit(deps, user, meta, { action, target });
  return toUserDetailDto(target).privileges;
}

/**
 * POST /admin/privileges-array?id_user=: replaces an executive's clinics with the given list (admins only).
 * Each item names a clinic by codeClinicStr; id_user, when sent, must be the same user; id_permission is stored as
 * the executive role (1) whatever is sent. Throws FORBIDDEN (audited) for non-admins, NOT_FOUND for a missing user,
 * BAD_REQUEST for a user who is not an executive, an unknown clinic or a malformed list.
 */
export async function setPrivileges(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<PrivilegeDto[]> {
  const action = "user.privileges.update";
  const actor = await requireStaffActor(deps, user, meta, action);
  const rawUserId = (input as { userId?: unknown } | null | undefined)?.userId;
  const userIdForAudit = typeof rawUserId === "number" || typeof rawUserId === "string" ? String(rawUserId).slice(0, 20) : null;
  await requireAdmin(deps, actor, meta, { action, resourceId: userIdForAudit }, userMessages.onlyAdminPrivileges);

  const { userId, privileges } = parseInput(ZSetPrivilegesInput, input);
  if (privileges.some((p) => p.id_user !== undefined && p.id_user !== userId))
    throw new AppError("BAD_REQUEST", userMessages.privilegeUserMismatch);
  const target = await findVisibleUser(deps, actor, meta, action, { id: userId });
  if (target.roleType !== Role.executive) throw new AppError("BAD_REQUEST", userMessages.privilegesOnlyExecutives);

  const wanted = [...new Set(privileges.map((p) => p.codeClinicStr))];
  const known = await deps.prisma.clinic.findMany({ where: { codeClinicStr: { in: wanted } }, select: { codeClinicStr: true } });
  const unknown = wanted.find((code) => !known.some((k) => k.codeClinicStr === code));
  if (unknown !== undefined) throw new AppError("BAD_REQUEST", userMessages.unknownClinic(unknown));

  const before = target.privileges.map((p) => p.codeClinicStr);
  const rows = await deps.prisma.$transaction(async (tx) => {
    await tx.privilege.deleteMany({ where: { userId } });
    await tx.privilege.createMany({ data: wanted.map((codeClinicStr) => ({ userId, codeClinicStr, idPermission: Role.executive })) });
    return tx.privilege.findMany({
      where: { userId },
      select: { userId: true, codeClinicStr: true, idPermission: true, clinic: { select: { code: true } } },
      orderBy: { codeClinicStr: "asc" },
    });
  });
  announceRowChange("Privilege", userId);
  await audit(deps, user, meta, {
    action,
    target,
    before: { privileges: before },
    after: { privileges: rows.map((r) => r.codeClinicStr) },
  });
  return rows.map(toPrivilegeDto);
}
