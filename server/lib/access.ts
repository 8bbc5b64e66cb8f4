import type { AppDeps, RequestMeta } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { Role } from "../contract/roles.ts";
import { staffRefusal, type SessionUser } from "../http/authenticate.ts";
import { audit, type ActionAudit, type AuditAction } from "./audit.ts";
import { AppError, forbiddenMessage } from "./errors.ts";
import { caregiverMessages, type CaregiverPart } from "../contract/caregivers.ts";
import { dayToDate } from "../contract/days.ts";
import { chileToday } from "./chile-time.ts";
import { countRefusedAccess, refusedAccessMessageFor } from "./refused-access.ts";

// Who may act on what, for every feature (the rules: server/features/users/PERMISSIONS.md). An executive's clinics are
// read from the database on every request, never from the token, so adding or removing a privilege takes effect on
// the next request.

type WithRole = Pick<SessionUser, "roleType">;

export const isAdmin = (user: WithRole): boolean => user.roleType === Role.admin;
export const isPatient = (user: WithRole): boolean => user.roleType === Role.patient;

/** A staff member acting now: admin, or executive with the clinics they hold privileges for at this moment. */
export interface StaffActor {
  user: SessionUser;
  isAdmin: boolean;
  /** Clinic keys of the executive's privileges (empty for admins, who are not limited by clinic). */
  clinics: string[];
}

/** Writes the denied audit row, then throws 403 with the message. */
export async function deny(
  deps: AppDeps,
  actor: SessionUser,
  meta: RequestMeta,
  entry: ActionAudit,
  message: string = forbiddenMessage,
): Promise<never> {
  await audit(deps, actor, meta, { ...entry, outcome: "denied" });
  throw new AppError("FORBIDDEN", message);
}

/**
 * Someone asked for data that is not theirs and is being refused (issue 42): X-Actuar-Por naming a patient they hold no
 * live link for, or an id (a bill, a file, a payment) that is someone else's or names nothing — the two answer alike.
 * Writes the denied row (`entry`; null when the id names nothing), whose patient the audit helper decides: the refused
 * patient's log shows it only when the caller is or was their caregiver. A patient account's refusals are counted
 * (refused-access.ts): past its limit this throws 429, and the refusals during the wait write no row. The caller then
 * throws its own answer (403, or the 404 of a missing id).
 */
export async function refuseReach(deps: AppDeps, caller: SessionUser, meta: RequestMeta, entry: ActionAudit | null): Promise<void> {
  const count = isPatient(caller) ? await countRefusedAccess(deps, caller.id) : { limited: false as const };
  if (entry && (!count.limited || count.crossed)) await audit(deps, caller, meta, { ...entry, outcome: "denied" });
  if (count.limited) throw new AppError("TOO_MANY_REQUESTS", refusedAccessMessageFor(count.waitMs));
}

/**
 * Throws FORBIDDEN (audited as denied) unless the user may use the staff endpoints (see staffRefusal): patients get
 * 'No tiene permiso…', staff still on their temporary password get 'Debe cambiar su contraseña temporal…'.
 */
export async function denyNonStaff(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: AuditAction): Promise<void> {
  const refusal = staffRefusal(user);
  if (refusal) await deny(deps, user, meta, { action }, refusal);
}

/**
 * The caller as a staff member. Throws FORBIDDEN (audited as denied) for patients and any other role.
 * Executives get their privileges from the database (or the privileges cache, which every committed change drops).
 */
export async function requireStaffActor(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: AuditAction): Promise<StaffActor> {
  await denyNonStaff(deps, user, meta, action);
  if (isAdmin(user)) return { user, isAdmin: true, clinics: [] };
  const held = await deps.cache.privileges.get(user.id, async () => {
    const privileges = await deps.prisma.privilege.findMany({ where: { userId: user.id }, select: { codeClinicStr: true } });
    return { clinics: privileges.map((p) => p.codeClinicStr) };
  });
  return { user, isAdmin: false, clinics: [...held!.clinics] };
}

/** Throws FORBIDDEN (audited) unless the actor is an admin. */
export async function requireAdmin(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  entry: ActionAudit,
  message: string,
): Promise<void> {
  if (!actor.isAdmin) await deny(deps, actor.user, meta, entry, message);
}

/** The clinics a staff actor may act on: every clinic for an admin, the executive's privileges otherwise. */
export type ClinicScope = { all: true } | { all: false; clinics: readonly string[] };

export function clinicScope(actor: StaffActor): ClinicScope {
  return actor.isAdmin ? { all: true } : { all: false, clinics: actor.clinics };
}

/** Whether the clinic (by key, e.g. "HCS") is inside the actor's scope. */
export function inClinicScope(actor: StaffActor, clinicKey: string): boolean {
  const scope = clinicScope(actor);
  return scope.all || scope.clinics.includes(clinicKey);
}

/**
 * A Prisma filter for a clinic-key column (`codeClinicStr`) limited to the actor's scope; undefined (no filter) for
 * admins. E.g. `where: { codeClinicStr: clinicScopeFilter(actor) }`.
 */
export function clinicScopeFilter(actor: StaffActor): { in: string[] } | undefined {
  const scope = clinicScope(actor);
  return scope.all ? undefined : { in: [...scope.clinics] };
}

/**
 * Users the actor may see: everyone for an admin; for an executive, patients registered with one of their clinics
 * and executives holding a privilege for one of them.
 */
export function visibleUsersWhere(actor: StaffActor): Prisma.UserWhereInput {
  const codeClinicStr = clinicScopeFilter(actor);
  if (!codeClinicStr) return {};
  return {
    OR: [
      { roleType: Role.patient, patientClinics: { some: { codeClinicStr } } },
      { roleType: Role.executive, privileges: { some: { codeClinicStr } } },
    ],
  };
}

/** The patient whose data a patient-area request reads or changes. */
export interface PatientSubject {
  id: number;
  rut: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/**
 * Who asks and for whom (issue 30): a patient acts for themself, or for a dependent through a caregiver link. Audit
 * rows name `caller` as the actor and `patient` as the patient, so the dependent sees the caregiver's reads.
 */
export interface PatientScope {
  caller: SessionUser;
  patient: PatientSubject;
  /** The caregiver link used; null when the patient is the caller themself. */
  linkId: number | null;
}

const patientSubjectSelect = { id: true, rut: true, email: true, firstName: true, lastName: true } as const;

/**
 * The live caregiver link letting `caregiverId` act for `dependentId` in `part`, or null. Read from the database on
 * every request, so a revoked or expired link is refused at once on every instance (no cache to go stale).
 */
export async function liveCaregiverLink(deps: Pick<AppDeps, "prisma">, caregiverId: number, dependentId: number, part: CaregiverPart) {
  return deps.prisma.caregiverLink.findFirst({
    where: {
      caregiverId,
      dependentId,
      revokedAt: null,
      expiresOn: { gte: dayToDate(chileToday()) },
      parts: { has: part },
      dependent: { roleType: Role.patient },
    },
    select: { id: true, dependent: { select: patientSubjectSelect } },
  });
}

/**
 * The one access rule of the patient area: whose data this request may use for `part` of the portal. Without the
 * X-Actuar-Por header (meta.actingFor), or naming the caller, it is the caller's own; naming a dependent, it needs a
 * live link covering `part`, or 403 (refuseReach: audited as denied under `action`, in the dependent's log only for a
 * caregiver of theirs, and counted against the caller's limit). Staff and any other role get 403, as before.
 */
export async function actingForPatient(
  deps: AppDeps,
  caller: SessionUser,
  meta: RequestMeta,
  part: CaregiverPart,
  action: AuditAction,
): Promise<PatientScope> {
  if (!isPatient(caller)) throw new AppError("FORBIDDEN", forbiddenMessage);
  const named = meta.actingFor?.trim();
  if (!named || named === String(caller.id)) return { caller, patient: caller, linkId: null };
  if (!/^\d{1,10}$/.test(named) || Number(named) > 2 ** 31 - 1) throw new AppError("BAD_REQUEST", caregiverMessages.badActingFor);
  const dependentId = Number(named);
  const link = await liveCaregiverLink(deps, caller.id, dependentId, part);
  if (!link) {
    await refuseReach(deps, caller, meta, { action, patientId: dependentId, after: { actingFor: dependentId, part } });
    throw new AppError("FORBIDDEN", caregiverMessages.notLinked);
  }
  return { caller, patient: link.dependent, linkId: link.id };
}
