import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import {
  actingForPatient,
  clinicScopeFilter,
  inClinicScope,
  isPatient,
  refuseReach,
  requireStaffActor,
  type PatientSubject,
  type StaffActor,
} from "../../lib/access.ts";
import type { BillsAuditAction } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { parseInput } from "../../http/validate.ts";
import { billMessages, ZBillId } from "../../contract/bills.schemas.ts";
import { billDtoSelect } from "./bills.dto.ts";

// Who may see and change which bill, on the shared staff rules of lib/access.ts: an executive's clinics are read from
// the database on every call, never from the token, so a privilege granted or removed applies on the next request.

export type BillsAction = BillsAuditAction;

/**
 * Who is acting on bills: staff (an admin, or an executive with their clinics now) or a patient on the bills of
 * `patient`: their own, or a dependent's through a caregiver link covering 'cuentas y pagos' (issue 30).
 */
export type BillsActor =
  { kind: "staff"; user: SessionUser; staff: StaffActor } | { kind: "patient"; user: SessionUser; patient: PatientSubject };

/** Staff only: patients and any other role get 403 (audited as denied), as does staff with a temporary password. */
export async function requireBillsStaff(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: BillsAction): Promise<BillsActor> {
  return { kind: "staff", user, staff: await requireStaffActor(deps, user, meta, action) };
}

/** Patients (for their own bills, or those of whom they act for) or staff (for their clinics' bills). */
export async function requireBillsReader(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: BillsAction): Promise<BillsActor> {
  if (isPatient(user))
    return { kind: "patient", user, patient: (await actingForPatient(deps, user, meta, "cuentas-pagos", action)).patient };
  return requireBillsStaff(deps, user, meta, action);
}

/** The bills the actor may see or change. */
export function billScopeWhere(actor: BillsActor): Prisma.BillWhereInput {
  if (actor.kind === "patient") return { userId: actor.patient.id };
  const clinicCode = clinicScopeFilter(actor.staff);
  return clinicCode ? { clinicCode } : {};
}

/** May the actor place or keep a bill at this clinic? */
export function holdsClinic(actor: BillsActor, clinicCode: string): boolean {
  return actor.kind === "staff" && inClinicScope(actor.staff, clinicCode);
}

/**
 * The bill if the actor may see it. A missing bill and one outside the actor's scope answer the same 404 (the
 * latter audited as denied), so ids cannot be probed; a patient probing them is slowed down (refuseReach).
 */
export async function findBill(deps: AppDeps, actor: BillsActor, meta: RequestMeta, action: BillsAuditAction, rawId: unknown) {
  const id = parseInput(ZBillId, rawId);
  const bill = await deps.prisma.bill.findUnique({ where: { id }, select: { ...billDtoSelect, userId: true } });
  if (!bill || !(await deps.prisma.bill.count({ where: { AND: [{ id }, billScopeWhere(actor)] } }))) {
    await refuseReach(deps, actor.user, meta, bill ? { action, resourceId: id, patientId: bill.userId } : null);
    throw new AppError("NOT_FOUND", billMessages.notFound);
  }
  return bill;
}
