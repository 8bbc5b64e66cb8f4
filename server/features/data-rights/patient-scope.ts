import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role } from "../../contract/roles.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { audit, type DataRightsAuditAction } from "../../lib/audit.ts";
import { requireStaffActor, visibleUsersWhere, type StaffActor } from "../../lib/access.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";

export const patientNotFoundMessage = "El paciente no existe";

/** These rights belong to patients: staff have no data of their own here (403). */
export function requirePatientUser(user: SessionUser): SessionUser {
  if (user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
  return user;
}

/**
 * A patient staff may act for: any patient for an admin, a patient registered at one of an executive's clinics
 * otherwise. A missing patient and one out of scope both answer NOT_FOUND (the latter audited as denied).
 */
export async function requireVisiblePatient(
  deps: AppDeps,
  user: SessionUser,
  meta: RequestMeta,
  action: DataRightsAuditAction,
  patientId: number,
): Promise<{
  actor: StaffActor;
  patient: { id: number; roleType: number; rut: string; firstName: string | null; lastName: string | null; secondLastName: string | null };
}> {
  const actor = await requireStaffActor(deps, user, meta, action);
  const patient = await deps.prisma.user.findFirst({
    where: { AND: [{ id: patientId, roleType: Role.patient }, visibleUsersWhere(actor)] },
    select: { id: true, roleType: true, rut: true, firstName: true, lastName: true, secondLastName: true },
  });
  if (!patient) {
    await audit(deps, user, meta, { action, resource: "user", resourceId: patientId, outcome: "denied" });
    throw new AppError("NOT_FOUND", patientNotFoundMessage);
  }
  return { actor, patient };
}
