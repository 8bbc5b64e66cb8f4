import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { Role } from "../../contract/roles.ts";
import { inClinicScope, deny, type StaffActor } from "../../lib/access.ts";
import { audit, type UsersAuditAction } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { toPrivilegeDto, toUserDto, type UserDetailDto } from "../../contract/users.dto.ts";
import { userDtoSelect } from "../../db/users.repository.ts";
import { userMessages } from "./users.schemas.ts";

// Which users a staff actor may see and change (PERMISSIONS.md); the role and clinic rules are in server/lib/access.ts.

export const targetUserSelect = {
  ...userDtoSelect,
  privileges: {
    select: { userId: true, codeClinicStr: true, idPermission: true, clinic: { select: { code: true } } },
    orderBy: { codeClinicStr: "asc" },
  },
  patientClinics: { select: { codeClinicStr: true }, orderBy: { codeClinicStr: "asc" } },
} as const satisfies Prisma.UserSelect;

export type TargetUser = Prisma.UserGetPayload<{ select: typeof targetUserSelect }>;

function isVisible(actor: StaffActor, target: TargetUser): boolean {
  if (actor.isAdmin) return true;
  if (target.roleType === Role.patient) return target.patientClinics.some((c) => inClinicScope(actor, c.codeClinicStr));
  if (target.roleType === Role.executive) return target.privileges.some((p) => inClinicScope(actor, p.codeClinicStr));
  return false;
}

/**
 * The target user if the actor may see it. A missing user and one outside the executive's scope both answer
 * NOT_FOUND with the same message (the latter is audited as denied), so ids cannot be probed.
 */
export async function findVisibleUser(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  action: UsersAuditAction,
  where: { id: number } | { rut: string },
): Promise<TargetUser> {
  const target = await deps.prisma.user.findUnique({ where, select: targetUserSelect });
  if (!target) {
    // The same audit insert as an out-of-scope user, so an executive cannot tell the two apart by timing.
    if (!actor.isAdmin) await audit(deps, actor.user, meta, { action, resourceId: "id" in where ? where.id : null, outcome: "denied" });
    throw new AppError("NOT_FOUND", userMessages.notFound);
  }
  if (!isVisible(actor, target)) {
    await audit(deps, actor.user, meta, { action, target, outcome: "denied" });
    throw new AppError("NOT_FOUND", userMessages.notFound);
  }
  return target;
}

/** Executives may change patients only; admins anyone. Throws FORBIDDEN (audited) otherwise. */
export async function requireEditable(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  action: UsersAuditAction,
  target: TargetUser,
): Promise<void> {
  if (!actor.isAdmin && target.roleType !== Role.patient)
    await deny(deps, actor.user, meta, { action, target }, userMessages.onlyAdminEditsStaff);
}

export function toUserDetailDto(target: TargetUser): UserDetailDto {
  return {
    ...toUserDto(target),
    privileges: target.privileges.map(toPrivilegeDto),
    patientClinics: target.patientClinics.map((c) => c.codeClinicStr),
  };
}

/** What the audit keeps of a user: the public fields plus clinic keys (no password hash, no token version). */
export function auditSnapshot(user: UserDetailDto): Omit<UserDetailDto, "privileges"> & { privileges: string[] } {
  return { ...user, privileges: user.privileges.map((p) => p.codeClinicStr) };
}
