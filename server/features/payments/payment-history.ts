import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { actingForPatient, isPatient } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { ZPaymentHistoryInput } from "../../contract/payments.schemas.ts";
import type { PaymentAttempt, PaymentAttemptResult, PaymentHistory } from "../../contract/payments.dto.ts";

// 'Historial de pagos' (issue 28): every payment attempt of the patient and what became of it, so a patient who closed
// the payment tab knows what happened. Only the patient's own attempts.

export const HISTORY_PAGE_SIZE = 10;

/** What became of an attempt: approved and in force, refunded, still open, or not paid (rejected, aborted, expired). */
export function attemptResult(transaction: Pick<PaymentTransaction, "status" | "paidBill">): PaymentAttemptResult {
  if (transaction.status === "INITIALIZED") return "pendiente";
  if (["REVERSED", "NULLIFIED", "PARTIALLY_NULLIFIED"].includes(transaction.status)) return "anulado";
  if (transaction.status === "AUTHORIZED" && transaction.paidBill) return "aceptado";
  return "rechazado";
}

const failureDetails: Record<string, string> = {
  rejected: "La tarjeta fue rechazada",
  aborted: "El pago se canceló en Webpay",
  timeout: "Se agotó el tiempo para pagar en Webpay",
  expired: "El pago no se completó a tiempo",
  "not-paid": "El pago no se completó en Webpay",
  mismatch: "Webpay informó un monto u orden distintos; el pago no se registró",
  "create-failed": "No se pudo iniciar el pago en Webpay",
};

/** Why the attempt ended as it did, in the patient's words. */
export function attemptDetail(transaction: Pick<PaymentTransaction, "status" | "paidBill" | "failureReason">, refunded: boolean): string {
  switch (attemptResult(transaction)) {
    case "pendiente":
      return "El pago sigue en curso en Webpay";
    case "aceptado":
      return "Pago recibido";
    case "anulado":
      return refunded ? "La clínica anuló el pago y devolvió el monto a la tarjeta" : "El pago fue anulado en Webpay";
    default:
      return failureDetails[transaction.failureReason ?? ""] ?? "El pago no se completó";
  }
}

/** GET /payment/history?page=: the patient's attempts, newest first, 10 a page. Audited. */
export async function paymentHistory(deps: AppDeps, user: SessionUser, rawInput: unknown, meta: RequestMeta): Promise<PaymentHistory> {
  if (!isPatient(user)) {
    await audit(deps, user, meta, { action: "payment.history", resource: "PaymentTransaction", outcome: "denied" });
    throw new AppError("FORBIDDEN", forbiddenMessage);
  }
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "payment.history");
  const { patient } = scope;
  const { page } = parseInput(ZPaymentHistoryInput, rawInput ?? {});
  const where = { userId: patient.id, bill: { userId: patient.id } };
  const [rows, total] = await Promise.all([
    deps.prisma.paymentTransaction.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * HISTORY_PAGE_SIZE,
      take: HISTORY_PAGE_SIZE,
      include: { bill: { select: { accountCode: true, isPaid: true } }, refund: { select: { status: true } } },
    }),
    deps.prisma.paymentTransaction.count({ where }),
  ]);
  const items: PaymentAttempt[] = rows.map((row) => ({
    buyOrder: row.buyOrder,
    accountId: row.billId,
    accountCode: row.bill.accountCode,
    amount: row.amount,
    result: attemptResult(row),
    detail: attemptDetail(row, row.refund?.status === "CONFIRMED"),
    at: (row.transactionDate ?? row.createdAt).toISOString(),
    hasReceipt: row.bill.isPaid && row.paidBill && row.status === "AUTHORIZED",
  }));
  await audit(deps, user, meta, { action: "payment.history", resource: "PaymentTransaction", scope, after: { page, total } });
  return { items, total, page };
}

/**
 * The patient's bills that have a receipt (paid by card, payment in force), so 'Comprobante' shows only where there is
 * one: a bill marked paid by staff without a card payment has none. Audited as a read of the payment history.
 */
export async function receiptAccounts(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<{ accountIds: number[] }> {
  if (!isPatient(user)) {
    await audit(deps, user, meta, { action: "payment.history", resource: "PaymentTransaction", outcome: "denied" });
    throw new AppError("FORBIDDEN", forbiddenMessage);
  }
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "payment.history");
  const rows = await deps.prisma.paymentTransaction.findMany({
    where: { userId: scope.patient.id, paidBill: true, status: "AUTHORIZED", bill: { userId: scope.patient.id, isPaid: true } },
    select: { billId: true },
  });
  const accountIds = [...new Set(rows.map((row) => row.billId))];
  await audit(deps, user, meta, {
    action: "payment.history",
    resource: "PaymentTransaction",
    scope,
    after: { receiptAccounts: accountIds },
  });
  return { accountIds };
}
