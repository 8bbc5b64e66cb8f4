import type { AccountPaymentStatus } from "../../contract/payments.dto.ts";
import { billStatusLabel } from "../../contract/bills.dto.ts";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { resolveClinic } from "../../contract/clinics.ts";
import { Role } from "../../contract/roles.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { recordAudit, type PaymentsAuditAction } from "../../lib/audit.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { PaymentRefusedError, providerUnavailableMessage, type ProviderTransaction } from "../../providers/payments/payments.provider.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import { paymentInProgressMessage } from "./payment-in-progress.ts";
import { toPaymentResult, type PaymentResult } from "./payment-result.ts";

// Card payment of a bill through the payments provider (Webpay Plus): start, commit on return, and settlement of
// commits lost to a closed tab or a network error. Money rules: the amount is the stored bill's; a bill is paid only
// when the provider answers response_code 0 and AUTHORIZED for exactly the stored amount and buy order; one commit per
// transaction, guarded by a conditional UPDATE in the database (so two tabs or two instances cannot both commit).

export const paymentMessages = {
  billNotFound: "Cuenta no encontrada",
  transactionNotFound: "Transacción no encontrada",
  alreadyPaid: "La cuenta ya está pagada",
  inProgress: "Ya hay un pago en curso para esta cuenta. Termínelo o espere unos minutos antes de intentarlo de nuevo.",
  stillProcessing: "El pago se está procesando, por favor espere unos segundos y vuelva a intentarlo",
  notFinished: "El pago aún no ha sido completado en el proveedor",
  invalidAccount: "Cuenta inválida",
  invalidToken: "Token de pago inválido",
  invalidBuyOrder: "Orden de compra inválida",
  missingToken: "Falta el token o la orden de compra del pago",
} as const;

export const RETURN_PATH = "/dashboard/my-bills";
/** How long one commit may hold its claim before another request or the sweep may take over. */
const claimLeaseMs = (deps: AppDeps) => deps.config.WEBPAY_TIMEOUT_MS * 2 + 5_000;
const pendingWindowMs = (deps: AppDeps) => deps.config.PAYMENT_PENDING_MINUTES * 60_000;

const ZAccountId = z.coerce
  .number({ error: paymentMessages.invalidAccount })
  .int({ error: paymentMessages.invalidAccount })
  .positive({ error: paymentMessages.invalidAccount })
  .max(2_147_483_647, { error: paymentMessages.invalidAccount });

export const ZStartPaymentInput = z.object({
  accountId: ZAccountId,
  /** Sent by the web app (SPEC §7) but never trusted: the amount charged is the stored bill's. */
  amount: z.unknown().optional(),
  /** The clinic portal the patient pays from; only selects a clinic of the catalogue. */
  rcrLink: z.string().trim().max(300).optional(),
  clinicCode: z.union([z.string().max(60), z.number()]).optional(),
});

const ZToken = z
  .string()
  .trim()
  .regex(/^(-1|[0-9A-Za-z]{1,64})$/, { error: paymentMessages.invalidToken });
const ZBuyOrder = z
  .string()
  .trim()
  .max(26, { error: paymentMessages.invalidBuyOrder })
  .regex(/^[A-Za-z0-9|_=&%.,~:/?[+!@()>-]*$/, { error: paymentMessages.invalidBuyOrder });

export const ZCommitPaymentInput = z.object({
  token_ws: ZToken.optional(),
  buy_order: ZBuyOrder.optional(),
  accountCode: z.string().trim().max(40).optional(),
  accountId: z.union([z.string().max(20), z.number()]).optional(),
});

export const ZAccountStatusInput = z.object({ accountId: ZAccountId });

function requirePatient(user: SessionUser): void {
  if (user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
}

/** Unique, at most 26 characters of Webpay's allowed set: bill id, time and randomness ("123-mbx2k1q0-9f3a1c"). */
export function newBuyOrder(billId: number, now = new Date()): string {
  const order = `${billId}-${now.getTime().toString(36)}-${randomBytes(3).toString("hex")}`;
  return order.slice(0, 26);
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

async function audit(
  deps: AppDeps,
  user: SessionUser | null,
  action: PaymentsAuditAction,
  transaction: PaymentTransaction | null,
  details: object,
  meta?: RequestMeta,
  outcome: "ok" | "denied" | "failed" = "ok",
) {
  await recordAudit(deps.prisma, {
    actorId: user?.id ?? null,
    actorRole: user?.roleType ?? null,
    action,
    resource: "PaymentTransaction",
    resourceId: transaction?.buyOrder ?? null,
    patientId: transaction?.userId ?? user?.id ?? null,
    after: transaction
      ? { billId: transaction.billId, amount: transaction.amount, status: transaction.status, paid: transaction.paidBill, ...details }
      : details,
    outcome,
    ip: meta?.ip ?? null,
  });
}

async function ownBill(deps: AppDeps, user: SessionUser, accountId: number, meta: RequestMeta, action: PaymentsAuditAction) {
  const bill = await deps.prisma.bill.findUnique({ where: { id: accountId } });
  if (!bill || bill.userId !== user.id) {
    // Another patient's bill answers exactly like a missing one.
    if (bill) await audit(deps, user, action, null, { billId: accountId }, meta, "denied");
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
  requirePatient(user);
  const input = parseInput(ZStartPaymentInput, rawInput);
  const bill = await ownBill(deps, user, input.accountId, meta, "payment.start");
  // A payment whose commit was lost may already have paid this bill: settle it before starting another.
  await settlePendingPayments(deps, { billId: bill.id });

  const { url: returnUrl, clinicKey } = paymentReturnUrl(deps, input.rcrLink, meta.host);
  const transaction = await deps.prisma
    .$transaction(async (tx) => {
      // Row lock on the bill: concurrent starts for one bill are serialised, so only one can find no payment in progress.
      const [locked] = await tx.$queryRaw<Array<{ isPaid: boolean }>>`SELECT "isPaid" FROM "Bill" WHERE id = ${bill.id} FOR UPDATE`;
      if (!locked) throw new AppError("NOT_FOUND", paymentMessages.billNotFound);
      if (locked.isPaid) throw new AppError("CONFLICT", paymentMessages.alreadyPaid);
      const inProgress = await tx.paymentTransaction.findFirst({
        where: { billId: bill.id, status: "INITIALIZED", createdAt: { gt: new Date(Date.now() - pendingWindowMs(deps)) } },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      });
      if (inProgress) throw new AppError("CONFLICT", paymentInProgressMessage(inProgress.createdAt, pendingWindowMs(deps)));
      return tx.paymentTransaction.create({
        data: {
          billId: bill.id,
          userId: user.id,
          clinicKey,
          buyOrder: newBuyOrder(bill.id),
          sessionId: `u${user.id}-${randomBytes(8).toString("hex")}`,
          amount: bill.amount,
        },
      });
    })
    .catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === "CONFLICT") {
        await audit(deps, user, "payment.start", null, { billId: bill.id, reason: error.message }, meta, "denied");
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
    await audit(deps, user, "payment.start", saved, { returnUrl }, meta);
    deps.metrics?.paymentOutcome("started");
    return { url: created.url, token: created.token };
  } catch (error) {
    const failed = await deps.prisma.paymentTransaction.update({
      where: { id: transaction.id },
      data: { status: "FAILED", failureReason: "create-failed" },
    });
    await audit(deps, user, "payment.start", failed, { reason: (error as Error).message }, meta, "failed");
    deps.metrics?.paymentOutcome("start_failed");
    if (error instanceof PaymentRefusedError) {
      deps.logError(error, `payments provider refused create: ${error.providerMessage}`);
      throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: error });
    }
    throw error;
  }
}

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

const releaseClaim = (deps: AppDeps, transaction: PaymentTransaction) =>
  deps.prisma.paymentTransaction.updateMany({ where: { id: transaction.id, status: "INITIALIZED" }, data: { commitClaimedAt: null } });

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
    const reason = refusalReason(error.providerMessage);
    let answer: ProviderTransaction;
    try {
      answer = await payments.status(transaction.token!);
    } catch (statusError) {
      if (statusError instanceof PaymentRefusedError)
        return recordSettlement(deps, transaction, { via: "refused", reason: refusalReason(statusError.providerMessage) });
      await releaseClaim(deps, transaction);
      throw statusError;
    }
    if (answer.status === "INITIALIZED") {
      await releaseClaim(deps, transaction);
      return null;
    }
    if (answer.response_code === undefined || answer.response_code === null)
      return recordSettlement(deps, transaction, { via: "refused", reason });
    return recordSettlement(deps, transaction, { via: "status", answer });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Commits once, whoever asks: a concurrent request waits for the claimant's stored result instead of calling again. */
async function settleByCommit(deps: AppDeps, transaction: PaymentTransaction): Promise<PaymentTransaction> {
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

async function ownTransaction(deps: AppDeps, user: SessionUser, where: { token: string } | { buyOrder: string }, meta: RequestMeta) {
  const transaction = await deps.prisma.paymentTransaction.findUnique({ where, include: { bill: true } });
  if (!transaction || transaction.userId !== user.id || transaction.bill.userId !== user.id) {
    if (transaction) await audit(deps, user, "payment.commit", null, { buyOrder: transaction.buyOrder }, meta, "denied");
    throw new AppError("NOT_FOUND", paymentMessages.transactionNotFound);
  }
  return transaction;
}

/**
 * SPEC §4 Payment flow 3–4, the return to my-bills: token_ws (paid or rejected) or TBK_TOKEN (aborted) → commit that
 * token; only TBK_ORDEN_COMPRA (form timed out) → token '-1' with that buy order. Always answers the stored result.
 */
export async function commitPayment(deps: AppDeps, user: SessionUser, rawInput: unknown, meta: RequestMeta): Promise<PaymentResult> {
  requirePatient(user);
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
    await audit(deps, user, "payment.commit", row, { reason: (error as Error).message }, meta, "failed");
    throw error;
  }
  await audit(deps, user, token ? "payment.commit" : "payment.timeout", settled, { failureReason: settled.failureReason }, meta);
  return toPaymentResult(settled, bill);
}

/**
 * Settles a transaction left INITIALIZED (commit lost, tab closed, form timed out) with status(token). When the form
 * finished but no commit reached the provider, commits it (that is what confirms the sale); a transaction still
 * unpaid after the pending window is recorded as expired.
 */
async function settleByStatus(
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
  let answer: ProviderTransaction;
  try {
    answer = await deps.providers.payments.status(transaction.token);
  } catch (error) {
    if (error instanceof PaymentRefusedError)
      return recordSettlement(deps, transaction, { via: "refused", reason: refusalReason(error.providerMessage) });
    await releaseClaim(deps, transaction);
    throw error;
  }
  if (answer.status === "INITIALIZED") {
    if (options.timedOut) return recordSettlement(deps, transaction, { via: "refused", reason: "timeout" });
    if (isOld) return recordSettlement(deps, transaction, { via: "refused", reason: "expired" });
    await releaseClaim(deps, transaction);
    return null;
  }
  if (answer.response_code === undefined || answer.response_code === null) {
    return recordSettlement(deps, transaction, { via: "refused", reason: options.timedOut ? "timeout" : "aborted" });
  }
  // The form finished (authorized or rejected): commit to confirm; a refusal means an earlier commit already did.
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
        await audit(deps, null, "payment.reconcile", result, { failureReason: result.failureReason });
      }
    } catch (error) {
      deps.logError(error, `could not settle payment ${transaction.buyOrder}`);
    }
  }
  return settled;
}

/** GET payment/account-status: whether the bill is paid or has a payment in progress (settling lost commits first). */
export async function accountPaymentStatus(
  deps: AppDeps,
  user: SessionUser,
  rawInput: unknown,
  meta: RequestMeta,
): Promise<AccountPaymentStatus> {
  requirePatient(user);
  const { accountId } = parseInput(ZAccountStatusInput, rawInput);
  const bill = await ownBill(deps, user, accountId, meta, "payment.status");
  await settlePendingPayments(deps, { billId: bill.id });
  const [current, last] = await Promise.all([
    deps.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } }),
    deps.prisma.paymentTransaction.findFirst({ where: { billId: bill.id }, orderBy: { createdAt: "desc" } }),
  ]);
  await audit(deps, user, "payment.status", last, { billId: current.id, isPaid: current.isPaid }, meta);
  return {
    accountId: current.id,
    accountCode: current.accountCode,
    isPaid: current.isPaid,
    status: billStatusLabel(current.isPaid),
    paymentInProgress: last?.status === "INITIALIZED",
    lastPayment: last ? toPaymentResult(last, current) : null,
  };
}

/** Starts the periodic sweep of lost commits; returns the function that stops it. */
export function startPaymentSweep(deps: AppDeps): () => void {
  const seconds = deps.config.PAYMENT_SWEEP_SECONDS;
  if (seconds === 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Leave the patient time to come back and commit before the sweep steps in.
    settlePendingPayments(deps, { olderThanMs: 2 * 60_000, limit: 50 })
      .catch((error: unknown) => deps.logError(error, "payment sweep failed"))
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
