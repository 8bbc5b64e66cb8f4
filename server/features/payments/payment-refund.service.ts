import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { PaymentRefund, PaymentTransaction } from "../../generated/prisma/client.ts";
import { isUniqueViolation } from "../../db/db-errors.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { denyNonStaff } from "../../lib/access.ts";
import { audit, type AuditOutcome } from "../../lib/audit.ts";
import { sendAccountNotice } from "../../lib/account-notices.ts";
import { AppError } from "../../lib/errors.ts";
import { clinicTitle } from "../../contract/clinics.ts";
import { formatClp } from "../../contract/money.ts";
import type { BillPayment, RefundView } from "../../contract/payments.dto.ts";
import { refundMessages, ZBillPaymentInput, ZRefundPaymentInput } from "../../contract/payments.schemas.ts";
import { PaymentRefusedError, type RefundResult } from "../../providers/payments/payments.provider.ts";
import { paymentAudit } from "./payment-audit.ts";
import { paymentRefundedNotice } from "./payment-notices.ts";
import { reachableBill, type ReachableBill } from "./payment-reach.ts";
import { chileDateTime } from "./payment-receipt.ts";
import { paymentTypeLabel } from "./payment-result.ts";

// 'Anular pago' (issue 28): staff (admins, executives of the bill's clinic) refund a bill's card payment in full through
// Webpay Plus's refund call. The provider decides what it is: a reversal (REVERSED, full amount within 3 hours of the
// sale) or a nullification (NULLIFIED). The bill returns to 'Pendiente' only once the provider confirms. One refund per
// payment: the unique refund row is the claim, so two staff members asking at once make one call to the provider; the
// second waits for the first's outcome. A failed or unanswered call leaves the bill paid and may be retried; a retry
// whose call is refused asks the provider's status first, because the lost answer may have been a refund.

const claimLeaseMs = (deps: AppDeps) => deps.config.WEBPAY_TIMEOUT_MS * 2 + 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Target = PaymentTransaction & {
  refund: (PaymentRefund & { requestedBy: { firstName: string | null; lastName: string | null; rut: string } }) | null;
};

/** The bill's card payment that a refund is about: the one paying it now, or the last one refunded. */
function refundTarget(deps: AppDeps, billId: number): Promise<Target | null> {
  return deps.prisma.paymentTransaction.findFirst({
    where: { billId, OR: [{ paidBill: true, status: "AUTHORIZED" }, { refund: { isNot: null } }] },
    orderBy: { createdAt: "desc" },
    include: { refund: { include: { requestedBy: { select: { firstName: true, lastName: true, rut: true } } } } },
  });
}

const isPaying = (transaction: PaymentTransaction) => transaction.paidBill && transaction.status === "AUTHORIZED";

function refundView(refund: NonNullable<Target["refund"]>): RefundView {
  const name = [refund.requestedBy.firstName, refund.requestedBy.lastName].filter(Boolean).join(" ");
  return {
    status: refund.status,
    type: refund.type === "REVERSED" || refund.type === "NULLIFIED" ? refund.type : null,
    amount: refund.amount,
    reason: refund.reason,
    requestedBy: name || refund.requestedBy.rut,
    at: (refund.confirmedAt ?? refund.updatedAt).toISOString(),
    authorizationCode: refund.authorizationCode,
    failureMessage: refund.status === "FAILED" ? refund.failureMessage : null,
  };
}

/** GET /payment/bill/{accountId} (staff): the bill's card payment, its refund and whether 'Anular pago' applies. */
export async function billPayment(deps: AppDeps, user: SessionUser, rawInput: unknown, meta: RequestMeta): Promise<BillPayment> {
  await denyNonStaff(deps, user, meta, "payment.read");
  const { accountId } = parseInput(ZBillPaymentInput, rawInput);
  const bill = await reachableBill(deps, user, meta, "payment.read", accountId, { staffOnly: true });
  const transaction = await refundTarget(deps, bill.id);
  await audit(deps, user, meta, paymentAudit("payment.read", transaction, {}, bill.userId));
  return {
    accountId: bill.id,
    payment: transaction
      ? {
          buyOrder: transaction.buyOrder,
          amount: transaction.amount,
          authorizationCode: transaction.authorizationCode,
          cardNumber: transaction.cardNumber,
          paymentType: paymentTypeLabel(transaction.paymentTypeCode),
          transactionDate: transaction.transactionDate?.toISOString() ?? null,
          status: transaction.status,
        }
      : null,
    refundable: !!transaction && bill.isPaid && isPaying(transaction) && transaction.refund?.status !== "PENDING",
    refund: transaction?.refund ? refundView(transaction.refund) : null,
  };
}

/** Takes the right to call the provider for this payment: a new refund row, or a failed or stale one taken over. */
async function claimRefund(deps: AppDeps, transaction: PaymentTransaction, user: SessionUser, reason: string): Promise<boolean> {
  const now = new Date();
  try {
    await deps.prisma.paymentRefund.create({
      data: { transactionId: transaction.id, requestedById: user.id, reason, amount: transaction.amount, claimedAt: now },
    });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const taken = await deps.prisma.paymentRefund.updateMany({
    where: {
      transactionId: transaction.id,
      OR: [{ status: "FAILED" }, { status: "PENDING", claimedAt: { lt: new Date(now.getTime() - claimLeaseMs(deps)) } }],
    },
    data: { status: "PENDING", claimedAt: now, requestedById: user.id, reason, failureMessage: null },
  });
  return taken.count === 1;
}

/** The refund as the provider's status tells it, when its own answer was lost (a status REVERSED or NULLIFIED). */
async function refundSeenInStatus(deps: AppDeps, transaction: PaymentTransaction): Promise<RefundResult | null> {
  try {
    const status = await deps.providers.payments.status(transaction.token!);
    if (status.status === "REVERSED") return { type: "REVERSED" };
    if (status.status === "NULLIFIED") return { type: "NULLIFIED", balance: status.balance ?? 0, nullified_amount: transaction.amount };
  } catch {
    // The question failed too: the refund stays failed and may be retried.
  }
  return null;
}

/** Records the provider's confirmation once: the refund, the payment's new status, and the bill back to 'Pendiente'. */
async function confirmRefund(deps: AppDeps, transaction: PaymentTransaction, answer: RefundResult): Promise<boolean> {
  const now = new Date();
  return deps.prisma.$transaction(async (tx) => {
    const updated = await tx.paymentRefund.updateMany({
      where: { transactionId: transaction.id, status: "PENDING" },
      data: {
        status: "CONFIRMED",
        type: answer.type,
        authorizationCode: answer.authorization_code ?? null,
        authorizationDate: answer.authorization_date ? new Date(answer.authorization_date) : null,
        nullifiedAmount: answer.nullified_amount ?? null,
        balance: answer.balance ?? null,
        responseCode: answer.response_code ?? null,
        providerAnswer: answer,
        confirmedAt: now,
        claimedAt: null,
      },
    });
    if (updated.count !== 1) return false;
    await tx.paymentTransaction.update({ where: { id: transaction.id }, data: { status: answer.type, paidBill: false } });
    await tx.bill.update({ where: { id: transaction.billId }, data: { isPaid: false } });
    return true;
  });
}

async function failRefund(deps: AppDeps, transaction: PaymentTransaction, message: string): Promise<void> {
  await deps.prisma.paymentRefund.updateMany({
    where: { transactionId: transaction.id, status: "PENDING" },
    data: { status: "FAILED", failureMessage: message.slice(0, 500), claimedAt: null },
  });
}

/** Calls the provider under the claim; returns its confirmation, or throws the Spanish refusal after recording it. */
async function callProvider(
  deps: AppDeps,
  transaction: PaymentTransaction,
  audited: (outcome: AuditOutcome, details: object) => Promise<void>,
) {
  let answer: RefundResult | null;
  try {
    answer = await deps.providers.payments.refund(transaction.token!, transaction.amount);
  } catch (error) {
    answer = error instanceof PaymentRefusedError ? await refundSeenInStatus(deps, transaction) : null;
    if (!answer) {
      const message = error instanceof PaymentRefusedError ? error.providerMessage : (error as Error).message;
      await failRefund(deps, transaction, message);
      await audited("failed", { providerMessage: message });
      if (error instanceof PaymentRefusedError) throw new AppError("CONFLICT", refundMessages.refused, { cause: error });
      const code = error instanceof AppError && error.code === "PROVIDER_TIMEOUT" ? "PROVIDER_TIMEOUT" : "PROVIDER_UNAVAILABLE";
      throw new AppError(code, refundMessages.providerDown, { cause: error });
    }
  }
  if (answer.type === "NULLIFIED" && answer.response_code !== undefined && answer.response_code !== 0) {
    await failRefund(deps, transaction, `response_code ${answer.response_code}`);
    await audited("failed", { providerAnswer: answer });
    throw new AppError("CONFLICT", refundMessages.refused);
  }
  return answer;
}

function notifyPatient(deps: AppDeps, bill: ReachableBill, transaction: PaymentTransaction, reason: string): void {
  if (!bill.user.email) return;
  const notice = paymentRefundedNotice({
    to: bill.user.email,
    firstName: bill.user.firstName,
    clinic: clinicTitle(bill.clinicCode),
    accountCode: bill.accountCode,
    amount: formatClp(transaction.amount),
    buyOrder: transaction.buyOrder,
    cardNumber: transaction.cardNumber,
    paidAt: chileDateTime(transaction.transactionDate ?? transaction.createdAt),
    reason,
  });
  sendAccountNotice(deps, notice, "payment refund");
}

/** Waits for another request's refund of this payment to end; answers its outcome. */
async function awaitOtherRefund(deps: AppDeps, billId: number): Promise<RefundView> {
  const deadline = Date.now() + claimLeaseMs(deps);
  while (Date.now() < deadline) {
    await sleep(100);
    const current = await refundTarget(deps, billId);
    const refund = current?.refund;
    if (refund?.status === "CONFIRMED") return refundView(refund);
    if (refund?.status === "FAILED") throw new AppError("CONFLICT", refundMessages.refused);
  }
  throw new AppError("CONFLICT", refundMessages.inProgress);
}

/** POST /payment/refund (staff): 'Anular pago' of a bill, with a reason. Idempotent: a confirmed refund is answered again. */
export async function refundPayment(deps: AppDeps, user: SessionUser, rawInput: unknown, meta: RequestMeta): Promise<RefundView> {
  await denyNonStaff(deps, user, meta, "payment.refund");
  const { accountId, reason } = parseInput(ZRefundPaymentInput, rawInput);
  const bill = await reachableBill(deps, user, meta, "payment.refund", accountId, { staffOnly: true });
  const transaction = await refundTarget(deps, bill.id);
  if (transaction?.refund?.status === "CONFIRMED") return refundView(transaction.refund);
  if (!transaction || !isPaying(transaction) || !bill.isPaid || !transaction.token) {
    await audit(deps, user, meta, paymentAudit("payment.refund", transaction, { reason, refused: "no-payment" }, bill.userId, "denied"));
    throw new AppError("CONFLICT", refundMessages.noPayment);
  }
  const audited = (outcome: AuditOutcome, details: object) =>
    audit(deps, user, meta, paymentAudit("payment.refund", transaction, { reason, ...details }, bill.userId, outcome));

  if (!(await claimRefund(deps, transaction, user, reason))) return awaitOtherRefund(deps, bill.id);
  const answer = await callProvider(deps, transaction, audited);
  if (await confirmRefund(deps, transaction, answer)) {
    await audited("ok", { providerAnswer: answer });
    notifyPatient(deps, bill, transaction, reason);
  }
  const confirmed = await refundTarget(deps, bill.id);
  return refundView(confirmed!.refund!);
}
