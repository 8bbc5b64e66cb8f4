import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { actingForPatient, inClinicScope, isPatient, refuseReach, requireStaffActor } from "../../lib/access.ts";
import type { PaymentsAuditAction } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { paymentMessages } from "../../contract/payments.schemas.ts";

// Who may reach a bill's payment (its receipt, its refund): the bill's patient (or their caregiver), and staff with reach over the bill
// (admins, executives of the bill's clinic, read from the database on every call by lib/access.ts).

/**
 * The bill if the caller may reach it. A missing bill and one outside the caller's reach answer the same 404 (the
 * latter audited as denied; both counted against a patient's limit by refuseReach), so ids cannot be probed. `staffOnly` refuses patients with 403 (audited).
 */
export async function reachableBill(
  deps: AppDeps,
  user: SessionUser,
  meta: RequestMeta,
  action: PaymentsAuditAction,
  accountId: number,
  options: { staffOnly?: boolean } = {},
) {
  const staff = options.staffOnly || !isPatient(user) ? await requireStaffActor(deps, user, meta, action) : null;
  // A patient reaches their own bills, or a dependent's through a live caregiver link (issue 30).
  const patientId = staff ? null : (await actingForPatient(deps, user, meta, "cuentas-pagos", action)).patient.id;
  const bill = await deps.prisma.bill.findUnique({
    where: { id: accountId },
    include: {
      user: { select: { id: true, rut: true, email: true, firstName: true, secondName: true, lastName: true, secondLastName: true } },
    },
  });
  const reaches = bill !== null && (staff ? inClinicScope(staff, bill.clinicCode) : bill.userId === patientId);
  if (!bill || !reaches) {
    await refuseReach(deps, user, meta, bill ? { action, resource: "bill", resourceId: bill.id, patientId: bill.userId } : null);
    throw new AppError("NOT_FOUND", paymentMessages.billNotFound);
  }
  return bill;
}

export type ReachableBill = Awaited<ReturnType<typeof reachableBill>>;

/** The payment that paid the bill now: approved by the provider and not refunded. */
export function payingTransaction(deps: AppDeps, billId: number) {
  return deps.prisma.paymentTransaction.findFirst({
    where: { billId, paidBill: true, status: "AUTHORIZED" },
    orderBy: { createdAt: "desc" },
  });
}
