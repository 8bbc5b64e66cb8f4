import type { AccountPaymentStatus } from "../../contract/payments.dto.ts";
import { billStatusLabel } from "../../contract/bills.dto.ts";
import { randomBytes, randomInt } from "node:crypto";
import { resolveClinic } from "../../contract/clinics.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { audit, type PaymentsAuditAction } from "../../lib/audit.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { actingForPatient, isPatient, liveCaregiverLink, refuseReach, type PatientScope } from "../../lib/access.ts";
import { PaymentRefusedError, providerUnavailableMessage } from "../../providers/payments/payments.provider.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import { paymentInProgressMessage } from "./payment-in-progress.ts";
import { toPaymentResult, type PaymentResult } from "./payment-result.ts";
import { paymentAudit } from "./payment-audit.ts";
import { pendingWindowMs, settleByCommit, settleByStatus, settlePendingPayments } from "./payment-settlement.ts";
import { paymentMessages, ZAccountStatusInput, ZCommitPaymentInput, ZStartPaymentInput } from "../../contract/payments.schemas.ts";

// Card payment of a bill through the payments provider (Webpay Plus): start, commit on return, and the bill's payment
// status; the settlement with the provider is payment-settlement.ts, its periodic sweep payment-sweep.ts. Money rules: the amount is the stored bill's; a bill is paid only
// when the provider answers response_code 0 and AUTHORIZED for exactly the stored amount and buy order; one commit per
// transaction, guarded by a conditional UPDATE in the database (so two tabs or two instances cannot both commit).

export const RETURN_PATH = "/dashboard/my-bills";

const BUY_ORDER_LENGTH = 26;
const BUY_ORDER_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Unique, exactly 26 characters of Webpay's allowed set: bill id, time and randomness filling the rest
 * ("123-mbx2k1q0-9fA3c1Zq0LkP2"). The largest bill id (10 digits) still leaves 6 random letters or digits (35 bits),
 * so two orders of one bill in the same millisecond do not collide on the unique buyOrder.
 */
export function newBuyOrder(billId: number, now = new Date()): string {
  const prefix = `${billId}-${now.getTime().toString(36)}-`;
  let random = "";
  for (let index = prefix.length; index < BUY_ORDER_LENGTH; index++) random += BUY_ORDER_ALPHABET[randomInt(BUY_ORDER_ALPHABET.length)];
  return prefix + random;
}

/** Return address: the portal of the clinic the patient paid from, taken from the catalogue and configuration only. */
export function paymentReturnUrl(
  deps: AppDeps,
  rcrLink: string | undefined,
  requestHost: string | undefined,
): { url: string; clinicKey: string } {
  const clinic = resolveClinic(rcrLink || requestHost || "");
  return { url: `${clinicPortalUrl(deps.config, clinic)}${RETURN_PATH}`, clinicKey: clinic.key };
}

/** The bill if it belongs to the patient the caller acts for (themself, or a dependent: issue 30). */
async function ownBill(deps: AppDeps, scope: PatientScope, accountId: number, meta: RequestMeta, action: PaymentsAuditAction) {
  const bill = await deps.prisma.bill.findUnique({ where: { id: accountId } });
  if (!bill || bill.userId !== scope.patient.id) {
    // Another patient's bill answers exactly like a missing one.
    await refuseReach(deps, scope.caller, meta, bill ? paymentAudit(action, null, { billId: accountId }, bill.userId) : null);
    throw new AppError("NOT_FOUND", paymentMessages.billNotFound);
  }
  return bill;
}

/** SPEC §4 Payment flow 1–2: starts a transaction for an unpaid bill; the browser then goes to `url` with `token`. */
export async function startPayment(
  deps: AppDeps,
  user: SessionUser,
  rawInput: unknown,
  meta: RequestMeta & { host?: string },
): Promise<{ url: string; token: string }> {
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "payment.start");
  const input = parseInput(ZStartPaymentInput, rawInput);
  const bill = await ownBill(deps, scope, input.accountId, meta, "payment.start");
  // A payment whose commit was lost may already have paid this bill: settle it before starting another.
  await settlePendingPayments(deps, { billId: bill.id });

  const { url: returnUrl, clinicKey } = paymentReturnUrl(deps, input.rcrLink, meta.host);
  const transaction = await deps.prisma
    .$transaction(async (tx) => {
      // Row lock on the bill: concurrent starts for one bill are serialised, so only one can find no payment in progress.
      const [locked] = await tx.$queryRaw<Array<{ isPaid: boolean }>>`SELECT "isPaid" FROM "Bill" WHERE id = ${bill.id} FOR UPDATE`;
      if (!locked) throw new AppError("NOT_FOUND", paymentMessages.billNotFound);
      if (locked.isPaid) throw new AppError("CONFLICT", paymentMessages.alreadyPaid);
      // Bills of $ 0 stored before amounts had to be positive: nothing to pay, and Webpay would refuse the amount.
      if (bill.amount < 1) throw new AppError("CONFLICT", paymentMessages.nothingToPay);
      const inProgress = await tx.paymentTransaction.findFirst({
        where: { billId: bill.id, status: "INITIALIZED", createdAt: { gt: new Date(Date.now() - pendingWindowMs(deps)) } },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      });
      if (inProgress) throw new AppError("CONFLICT", paymentInProgressMessage(inProgress.createdAt, pendingWindowMs(deps)));
      return tx.paymentTransaction.create({
        data: {
          billId: bill.id,
          userId: bill.userId,
          payerId: user.id,
          clinicKey,
          buyOrder: newBuyOrder(bill.id),
          sessionId: `u${user.id}-${randomBytes(8).toString("hex")}`,
          amount: bill.amount,
        },
      });
    })
    .catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === "CONFLICT") {
        await audit(
          deps,
          user,
          meta,
          paymentAudit("payment.start", null, { billId: bill.id, reason: error.message }, bill.userId, "denied"),
        );
      }
      throw error;
    });

  try {
    const created = await deps.providers.payments.create({
      buyOrder: transaction.buyOrder,
      sessionId: transaction.sessionId,
      amount: transaction.amount,
      returnUrl,
    });
    if (new URL(created.url).origin !== deps.providers.payments.formOrigin) {
      throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: new Error(`unexpected form URL ${created.url}`) });
    }
    const saved = await deps.prisma.paymentTransaction.update({ where: { id: transaction.id }, data: { token: created.token } });
    await audit(deps, user, meta, paymentAudit("payment.start", saved, { returnUrl }, bill.userId));
    deps.metrics?.paymentOutcome("started");
    return { url: created.url, token: created.token };
  } catch (error) {
    const failed = await deps.prisma.paymentTransaction.update({
      where: { id: transaction.id },
      data: { status: "FAILED", failureReason: "create-failed" },
    });
    await audit(deps, user, meta, paymentAudit("payment.start", failed, { reason: (error as Error).message }, bill.userId, "failed"));
    deps.metrics?.paymentOutcome("start_failed");
    if (error instanceof PaymentRefusedError) {
      deps.logError(error, `payments provider refused create: ${error.providerMessage}`);
      throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: error });
    }
    throw error;
  }
}

/**
 * The transaction if the caller started it (its payer) and still may pay that bill: their own, or a dependent's while
 * the caregiver link still covers 'cuentas y pagos'. The return from Webpay needs no X-Actuar-Por: the transaction
 * names the bill's patient.
 */
async function ownTransaction(deps: AppDeps, user: SessionUser, where: { token: string } | { buyOrder: string }, meta: RequestMeta) {
  const transaction = await deps.prisma.paymentTransaction.findUnique({ where, include: { bill: true } });
  const payer = transaction ? (transaction.payerId ?? transaction.userId) : null;
  const mayPay =
    !!transaction &&
    payer === user.id &&
    transaction.bill.userId === transaction.userId &&
    (transaction.userId === user.id || !!(await liveCaregiverLink(deps, user.id, transaction.userId, "cuentas-pagos")));
  if (!transaction || !mayPay) {
    await refuseReach(
      deps,
      user,
      meta,
      transaction ? paymentAudit("payment.commit", null, { buyOrder: transaction.buyOrder }, transaction.userId) : null,
    );
    throw new AppError("NOT_FOUND", paymentMessages.transactionNotFound);
  }
  return transaction;
}

/**
 * SPEC §4 Payment flow 3–4, the return to my-bills: token_ws (paid or rejected) or TBK_TOKEN (aborted) → commit that
 * token; only TBK_ORDEN_COMPRA (form timed out) → token '-1' with that buy order. Always answers the stored result.
 */
export async function commitPayment(deps: AppDeps, user: SessionUser, rawInput: unknown, meta: RequestMeta): Promise<PaymentResult> {
  if (!isPatient(user)) throw new AppError("FORBIDDEN", forbiddenMessage);
  const input = parseInput(ZCommitPaymentInput, rawInput);
  const token = input.token_ws && input.token_ws !== "-1" ? input.token_ws : undefined;
  if (!token && !input.buy_order) throw new AppError("BAD_REQUEST", paymentMessages.missingToken);

  const transaction = await ownTransaction(deps, user, token ? { token } : { buyOrder: input.buy_order! }, meta);
  const { bill, ...row } = transaction;
  let settled: PaymentTransaction;
  try {
    if (token) {
      settled = await settleByCommit(deps, row);
    } else {
      // Timed out at the form: nothing to commit. Confirm with status (the lost-commit rules) and record the outcome.
      settled = (await settleByStatus(deps, row, { timedOut: true })) ?? row;
    }
  } catch (error) {
    await audit(deps, user, meta, paymentAudit("payment.commit", row, { reason: (error as Error).message }, row.userId, "failed"));
    throw error;
  }
  await audit(
    deps,
    user,
    meta,
    paymentAudit(token ? "payment.commit" : "payment.timeout", settled, { failureReason: settled.failureReason }, settled.userId),
  );
  return toPaymentResult(settled, bill);
}

/** GET payment/account-status: whether the bill is paid or has a payment in progress (settling lost commits first). */
export async function accountPaymentStatus(
  deps: AppDeps,
  user: SessionUser,
  rawInput: unknown,
  meta: RequestMeta,
): Promise<AccountPaymentStatus> {
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "payment.status");
  const { accountId } = parseInput(ZAccountStatusInput, rawInput);
  const bill = await ownBill(deps, scope, accountId, meta, "payment.status");
  await settlePendingPayments(deps, { billId: bill.id });
  const [current, last] = await Promise.all([
    deps.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } }),
    deps.prisma.paymentTransaction.findFirst({ where: { billId: bill.id }, orderBy: { createdAt: "desc" } }),
  ]);
  await audit(deps, user, meta, paymentAudit("payment.status", last, { billId: current.id, isPaid: current.isPaid }, current.userId));
  return {
    accountId: current.id,
    accountCode: current.accountCode,
    isPaid: current.isPaid,
    status: billStatusLabel(current.isPaid),
    paymentInProgress: last?.status === "INITIALIZED",
    lastPayment: last ? toPaymentResult(last, current) : null,
  };
}

/**
 * Settles the payments whose commit was lost (closed tab, network error) on the bills of the patient the caller acts
 * for (themself or a dependent): the bills page calls it on every visit (SPEC §4). How many changed.
 */
export async function settleMyPayments(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<number> {
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "payment.reconcile");
  const settled = await settlePendingPayments(deps, { userId: scope.patient.id });
  await audit(deps, user, meta, { action: "payment.reconcile", resource: "PaymentTransaction", scope, after: { settled } });
  return settled;
}
