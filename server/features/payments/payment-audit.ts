import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import type { ActionAudit, AuditOutcome, PaymentsAuditAction } from "../../lib/audit.ts";

/** The audit entry of a payment action: the transaction (by buy order), its patient, and what happened to it. */
export function paymentAudit(
  action: PaymentsAuditAction,
  transaction: PaymentTransaction | null,
  details: object,
  patientId: number | null,
  outcome: AuditOutcome = "ok",
): ActionAudit {
  return {
    action,
    resource: "PaymentTransaction",
    resourceId: transaction?.buyOrder ?? null,
    patientId: transaction?.userId ?? patientId,
    after: transaction
      ? { billId: transaction.billId, amount: transaction.amount, status: transaction.status, paid: transaction.paidBill, ...details }
      : details,
    outcome,
  };
}
