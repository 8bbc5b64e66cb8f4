import type { AppDeps } from "../../deps.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import { paymentMessages } from "../../contract/payments.schemas.ts";
import { audit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { PaymentRefusedError, type ProviderTransaction } from "../../providers/payments/payments.provider.ts";
import { paymentAudit } from "./payment-audit.ts";

// Settlement of a payment with the provider: the commit on the patient's return, and the status question that settles
// commits lost to a closed tab, a timed-out form or a network error. One commit per transaction: a claim (a conditional
// UPDATE) says who talks to the provider, and the first writer of the answer wins (so two tabs or two instances cannot
// both commit).

/**
 * How long a claim lasts before another request or the sweep may take over: one provider call's timeout and a margin.
 * A claimant that makes a second call renews it first, so a patient whose commit died with its instance waits no
 * longer than that.
 */
const claimLeaseMs = (deps: AppDeps) => deps.config.WEBPAY_TIMEOUT_MS + 5_000;
/** How long a payment may stay INITIALIZED before it counts as expired (and blocks another start until then). */
export const pendingWindowMs = (deps: AppDeps) => deps.config.PAYMENT_PENDING_MINUTES * 60_000;

/** Why the provider refused a commit, from its error message (aborted form, timed-out form, nothing paid yet). */
function refusalReason(message: string): string {
  if (/invalid finished state: aborted/i.test(message)) return "timeout";
  if (/Invalid status '0'/.test(message)) return "not-paid";
  if (/max time \(7 days\)/.test(message)) return "expired";
  return "aborted";
}

type Settlement = { via: "commit" | "status"; answer: ProviderTransaction } | { via: "refused"; reason: string };

/**
 * Records the provider's answer once: the conditional UPDATE on status INITIALIZED makes the first writer win. The bill
 * becomes paid only for response_code 0 + AUTHORIZED + the stored amount and buy order.
 */
async function recordSettlement(deps: AppDeps, transaction: PaymentTransaction, settlement: Settlement): Promise<PaymentTransaction> {
  const now = new Date();
  let data: Parameters<typeof deps.prisma.paymentTransaction.update>[0]["data"];
  let pays = false;
  if (settlement.via === "refused") {
    data = { status: "FAILED", failureReason: settlement.reason, committedAt: now, commitClaimedAt: null };
  } else {
    const { answer } = settlement;
    const authorized = answer.response_code === 0 && answer.status === "AUTHORIZED";
    const matches = answer.amount === transaction.amount && answer.buy_order === transaction.buyOrder;
    pays = authorized && matches;
    if (authorized && !matches) {
      deps.logError(
        new Error("payment mismatch"),
        `provider authorized ${answer.buy_order}/${answer.amount} for ${transaction.buyOrder}/${transaction.amount}`,
      );
    }
    data = {
      status: answer.status,
      failureReason: pays
        ? null
        : authorized
          ? "mismatch"
          : answer.response_code !== undefined && answer.response_code !== null
            ? "rejected"
            : "aborted",
      paidBill: pays,
      committedAt: now,
      commitClaimedAt: null,
      responseCode: answer.response_code ?? null,
      vci: answer.vci ?? null,
      authorizationCode: answer.authorization_code ?? null,
      transactionDate: answer.transaction_date ? new Date(answer.transaction_date) : null,
      accountingDate: answer.accounting_date ?? null,
      paymentTypeCode: answer.payment_type_code ?? null,
      installmentsNumber: answer.installments_number ?? null,
      installmentsAmount: answer.installments_amount ?? null,
      cardNumber: answer.card_detail?.card_number?.slice(-4) ?? null,
    };
  }
  const { recorded, result } = await deps.prisma.$transaction(async (tx) => {
    const updated = await tx.paymentTransaction.updateMany({ where: { id: transaction.id, status: "INITIALIZED" }, data });
    if (updated.count === 1 && pays) await tx.bill.update({ where: { id: transaction.billId }, data: { isPaid: true } });
    return { recorded: updated.count === 1, result: await tx.paymentTransaction.findUniqueOrThrow({ where: { id: transaction.id } }) };
  });
  // Counted once per payment, by the writer that settled it.
  if (recorded) deps.metrics?.paymentOutcome(pays ? "authorized" : (result.failureReason ?? "other"));
  return result;
}

/** Claims the right to talk to the provider about this transaction; false when someone else holds a live claim. */
async function claim(deps: AppDeps, transaction: PaymentTransaction): Promise<boolean> {
  const now = new Date();
  const claimed = await deps.prisma.paymentTransaction.updateMany({
    where: {
      id: transaction.id,
      status: "INITIALIZED",
      OR: [{ commitClaimedAt: null }, { commitClaimedAt: { lt: new Date(now.getTime() - claimLeaseMs(deps)) } }],
    },
    data: { commitClaimedAt: now },
  });
  return claimed.count === 1;
}

/**
 * Renews the claim before a second provider call. Best effort: should a stalled claimant have lost its claim meanwhile,
 * both may call the provider, which commits a token once, and the first writer of the answer still wins.
 */
const renewClaim = (deps: AppDeps, transaction: PaymentTransaction) =>
  deps.prisma.paymentTransaction.updateMany({
    where: { id: transaction.id, status: "INITIALIZED" },
    data: { commitClaimedAt: new Date() },
  });

const releaseClaim = (deps: AppDeps, transaction: PaymentTransaction) =>
  deps.prisma.paymentTransaction.updateMany({ where: { id: transaction.id, status: "INITIALIZED" }, data: { commitClaimedAt: null } });

/**
 * Asks the provider for the status of a claimed transaction: the one path both the commit (after a refusal) and the
 * settlement of lost commits take. A refusal of the question is recorded as failed; an outage releases the claim and
 * throws; a transaction still INITIALIZED at the provider is recorded as failed with `initialized` as the reason, or,
 * when that is null, released for a later try (settled: null); a finished form without a response code is recorded
 * as failed with `noResponse`. Otherwise the form finished (authorized or rejected): the answer is returned.
 */
async function askStatus(
  deps: AppDeps,
  transaction: PaymentTransaction,
  reasons: { initialized: string | null; noResponse: string },
): Promise<{ settled: PaymentTransaction | null } | { answer: ProviderTransaction }> {
  let answer: ProviderTransaction;
  try {
    answer = await deps.providers.payments.status(transaction.token!);
  } catch (error) {
    if (error instanceof PaymentRefusedError)
      return { settled: await recordSettlement(deps, transaction, { via: "refused", reason: refusalReason(error.providerMessage) }) };
    await releaseClaim(deps, transaction);
    throw error;
  }
  if (answer.status === "INITIALIZED") {
    if (reasons.initialized) return { settled: await recordSettlement(deps, transaction, { via: "refused", reason: reasons.initialized }) };
    await releaseClaim(deps, transaction);
    return { settled: null };
  }
  if (answer.response_code === undefined || answer.response_code === null)
    return { settled: await recordSettlement(deps, transaction, { via: "refused", reason: reasons.noResponse }) };
  return { answer };
}

/**
 * Commits with the provider under a claim. A refusal (aborted, timed out, already committed by a commit whose answer
 * was lost) is resolved with status(token). Returns null when the payment is not finished at the provider yet.
 */
async function commitClaimed(deps: AppDeps, transaction: PaymentTransaction): Promise<PaymentTransaction | null> {
  const payments = deps.providers.payments;
  try {
    const answer = await payments.commit(transaction.token!);
    return await recordSettlement(deps, transaction, { via: "commit", answer });
  } catch (error) {
    if (!(error instanceof PaymentRefusedError)) {
      // Outage or timeout: the provider may or may not have committed. Leave it pending; status(token) settles it later.
      await releaseClaim(deps, transaction);
      throw error;
    }
    await renewClaim(deps, transaction);
    const asked = await askStatus(deps, transaction, { initialized: null, noResponse: refusalReason(error.providerMessage) });
    return "settled" in asked ? asked.settled : recordSettlement(deps, transaction, { via: "status", answer: asked.answer });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Commits once, whoever asks: a concurrent request waits for the claimant's stored result instead of calling again. */
export async function settleByCommit(deps: AppDeps, transaction: PaymentTransaction): Promise<PaymentTransaction> {
  const deadline = Date.now() + claimLeaseMs(deps);
  let current = transaction;
  for (;;) {
    if (current.status !== "INITIALIZED") return current;
    if (await claim(deps, current)) {
      const settled = await commitClaimed(deps, current);
      if (!settled) throw new AppError("CONFLICT", paymentMessages.notFinished);
      return settled;
    }
    if (Date.now() > deadline) throw new AppError("CONFLICT", paymentMessages.stillProcessing);
    await sleep(100);
    current = await deps.prisma.paymentTransaction.findUniqueOrThrow({ where: { id: transaction.id } });
  }
}

/**
 * Settles a transaction left INITIALIZED (commit lost, tab closed, form timed out) with status(token). When the form
 * finished but no commit reached the provider, commits it (that is what confirms the sale); a transaction still
 * unpaid after the pending window is recorded as expired.
 */
export async function settleByStatus(
  deps: AppDeps,
  transaction: PaymentTransaction,
  options: { timedOut?: boolean } = {},
): Promise<PaymentTransaction | null> {
  const isOld = Date.now() - transaction.createdAt.getTime() > pendingWindowMs(deps);
  if (!transaction.token) {
    if (!isOld && !options.timedOut) return null;
    return recordSettlement(deps, transaction, { via: "refused", reason: "create-failed" });
  }
  if (!(await claim(deps, transaction))) return null;
  const asked = await askStatus(deps, transaction, {
    initialized: options.timedOut ? "timeout" : isOld ? "expired" : null,
    noResponse: options.timedOut ? "timeout" : "aborted",
  });
  if ("settled" in asked) return asked.settled;
  const { answer } = asked;
  // The form finished (authorized or rejected): commit to confirm; a refusal means an earlier commit already did.
  await renewClaim(deps, transaction);
  try {
    const committed = await deps.providers.payments.commit(transaction.token);
    return await recordSettlement(deps, transaction, { via: "commit", answer: committed });
  } catch (error) {
    if (error instanceof PaymentRefusedError) return recordSettlement(deps, transaction, { via: "status", answer });
    await releaseClaim(deps, transaction);
    throw error;
  }
}

/**
 * Settles pending payments (of one patient, one bill, or all old enough for the sweep). Provider outages are logged
 * and left for the next run; returns how many were settled.
 */
export async function settlePendingPayments(
  deps: AppDeps,
  scope: { userId?: number; billId?: number; olderThanMs?: number; limit?: number },
): Promise<number> {
  const pending = await deps.prisma.paymentTransaction.findMany({
    where: {
      status: "INITIALIZED",
      ...(scope.userId !== undefined ? { userId: scope.userId } : {}),
      ...(scope.billId !== undefined ? { billId: scope.billId } : {}),
      ...(scope.olderThanMs !== undefined ? { createdAt: { lt: new Date(Date.now() - scope.olderThanMs) } } : {}),
    },
    orderBy: { createdAt: "asc" },
    take: scope.limit ?? 20,
  });
  let settled = 0;
  for (const transaction of pending) {
    try {
      const result = await settleByStatus(deps, transaction);
      if (result) {
        settled += 1;
        await audit(deps, null, null, paymentAudit("payment.reconcile", result, { failureReason: result.failureReason }, null));
      }
    } catch (error) {
      deps.logError(error, `could not settle payment ${transaction.buyOrder}`);
    }
  }
  return settled;
}
