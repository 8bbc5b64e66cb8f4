import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { Role } from "../../contract/roles.ts";
import { staffRefusal, type SessionUser } from "../../http/authenticate.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { toPrivilegeDto, toUserDto, userDtoSelect, type UserDetailDto } from "./user.dto.ts";
import { userMessages } from "./users.schemas.ts";

// Who may see and change which user (see PERMISSIONS.md). The executive's clinics are read from the database on
// every call, never from the token, so adding or removing a privilege takes effect on the next request.

export type UsersAction =
  | "user.list"
  | "user.read"
  | "user.update"
  | "user.create"
  | "user.password-reset"
  | "user.privileges.read"
  | "user.privileges.update"
  | "clinic.list";

/** A staff member acting now: admin, or executive with the clinics they hold privileges for at this moment. */
export interface StaffActor {
  user: SessionUser;
  isAdmin: boolean;
  /** Clinic keys of the executive's privileges (empty for admins, who are not limited by clinic). */
  clinics: string[];
}

export const targetUserSelect = {
  ...userDtoSelect,
  privileges: {
    select: { userId: true, codeClinicStr: true, idPermission: true, clinic: { select: { code: true } } },
    orderBy: { codeClinicStr: "asc" },
  },
  patientClinics: { select: { codeClinicStr: true }, orderBy: { codeClinicStr: "asc" } },
} as const satisfies Prisma.UserSelect;

export type TargetUser = Prisma.UserGetPayload<{ select: typeof targetUserSelect }>;

export interface AuditUsersEntry {
  action: UsersAction;
  target?: { id: number; roleType: number } | null;
  resourceId?: number | string | null;
  before?: unknown;
  after?: unknown;
  outcome?: "ok" | "denied" | "failed";
}

/** One audit row of the user administration: actor, role, action, target, before/after (never a password hash), outcome. */
export function auditUsers(deps: AppDeps, actor: SessionUser, meta: RequestMeta, entry: AuditUsersEntry): Promise<void> {
  return recordAudit(deps.prisma, {
    actorId: actor.id,
    actorRole: actor.roleType,
    action: entry.action,
    resource: entry.action === "clinic.list" ? "clinic" : "user",
    resourceId: entry.target?.id ?? entry.resourceId ?? null,
    patientId: entry.target?.roleType === Role.patient ? entry.target.id : null,
    before: entry.before,
    after: entry.after,
    outcome: entry.outcome ?? "ok",
    ip: meta.ip,
  });
}

/** Writes the denied audit row, then throws 403 with the message. */
export async function deny(
  deps: AppDeps,
  actor: SessionUser,
  meta: RequestMeta,
  entry: AuditUsersEntry,
  message: string = forbiddenMessage,
): Promise<never> {
  await auditUsers(deps, actor, meta, { ...entry, outcome: "denied" });
  throw new AppError("FORBIDDEN", message);
}

/** Throws FORBIDDEN (audited as denied) unless the user may use the staff endpoints (see staffRefusal). */
export async function denyNonStaff(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: UsersAction): Promise<void> {
  const refusal = staffRefusal(user);
  if (refusal) await deny(deps, user, meta, { action }, refusal);
}

/**
 * The caller as a staff member. Throws FORBIDDEN (audited as denied) for patients and any other role.
 * Executives get their privileges read from the database now.
 */
export async function requireStaffActor(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: UsersAction): Promise<StaffActor> {
  await denyNonStaff(deps, user, meta, action);
  if (user.roleType === Role.admin) return { user, isAdmin: true, clinics: [] };
  const privileges = await deps.prisma.privilege.findMany({ where: { userId: user.id }, select: { codeClinicStr: true } });
  return { user, isAdmin: false, clinics: privileges.map((p) => p.codeClinicStr) };
}

/** Throws FORBIDDEN (audited) unless the actor is an admin. */
export async function requireAdmin(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  entry: AuditUsersEntry,
  message: string,
): Promise<void> {
  if (!actor.isAdmin) await deny(deps, actor.user, meta, entry, message);
}

/**
 * Users the actor may see: everyone for an admin; for an executive, patients registered with one of their clinics
 * and executives holding a privilege for one of them.
 */
export function visibleUsersWhere(actor: StaffActor): Prisma.UserWhereInput {
  if (actor.isAdmin) return {};
  const inMyClinics = { codeClinicStr: { in: actor.clinics } };
  return {
    OR: [
      { roleType: Role.patient, patientClinics: { some: inMyClinics } },
      { roleType: Role.executive, privileges: { some: inMyClinics } },
    ],
  };
}

function isVisible(actor: StaffActor, target: TargetUser): boolean {
  if (actor.isAdmin) return true;
  if (target.roleType === Role.patient) return target.patientClinics.some((c) => actor.clinics.includes(c.codeClinicStr));
  if (target.roleType === Role.executive) return target.privileges.some((p) => actor.clinics.includes(p.codeClinicStr));
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
  action: UsersAction,
  where: { id: number } | { rut: string },
): Promise<TargetUser> {
  const target = await deps.prisma.user.findUnique({ where, select: targetUserSelect });
  if (!target) {
    // The same audit insert as an out-of-scope user, so an executive cannot tell the two apart by timing.
    if (!actor.isAdmin)
      await auditUsers(deps, actor.user, meta, { action, resourceId: "id" in where ? where.id : null, outcome: "denied" });
    throw new AppError("NOT_FOUND", userMessages.notFound);
  }
  if (!isVisible(actor, target)) {
    await auditUsers(deps, actor.user, meta, { action, target, outcome: "denied" });
    throw new AppError("NOT_FOUND", userMessages.notFound);
  }
  return target;
}

/** Executives may change patients only; admins anyone. Throws FORBIDDEN (audited) otherwise. */
export async function requireEditable(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  action: UsersAction,
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
