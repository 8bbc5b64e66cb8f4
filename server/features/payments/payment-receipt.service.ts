import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { firstLoginRefusal, sessionUserSelect } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { audit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { issuingSession, linkSignInMethod, linkStillOpens, signLink, verifyLink, ZSignedLinkQuery } from "../../lib/signed-links.ts";
import { refundMessages, ZBillPaymentInput } from "../../contract/payments.schemas.ts";
import { paymentAudit } from "./payment-audit.ts";
import { payingTransaction, reachableBill } from "./payment-reach.ts";
import { receiptData, receiptFileName, receiptPdf } from "./payment-receipt.ts";

// 'Comprobante' (issue 28): a short-lived signed link to the receipt of a paid bill, and the PDF behind it. Reachable
// by the bill's patient and by staff with reach over the bill; both steps are audited.

/** How long a receipt link works: long enough to click, short enough not to be kept. */
export const RECEIPT_LINK_TTL_SECONDS = 300;

/** The receipt's link for the caller (GET /payment/receipt/{accountId}); 404 when the bill has no card payment in force. */
export async function receiptLink(
  deps: AppDeps,
  user: SessionUser,
  rawInput: unknown,
  meta: RequestMeta,
  now: Date = new Date(),
): Promise<{ url: string; fileName: string; expiresAt: string }> {
  const { accountId } = parseInput(ZBillPaymentInput, rawInput);
  const bill = await reachableBill(deps, user, meta, "payment.receipt.link", accountId);
  const transaction = bill.isPaid ? await payingTransaction(deps, bill.id) : null;
  if (!transaction) throw new AppError("NOT_FOUND", refundMessages.noReceipt);
  const token = await signLink(
    deps.config,
    {
      userId: user.id,
      tokenVersion: user.tokenVersion,
      purpose: "payment-receipt",
      ref: transaction.buyOrder,
      patientId: bill.userId,
      sessionId: issuingSession(user),
    },
    RECEIPT_LINK_TTL_SECONDS,
    now,
  );
  await audit(deps, user, meta, paymentAudit("payment.receipt.link", transaction, {}, bill.userId));
  return {
    url: `/api/rcr/v1/payment/receipt/download/${encodeURIComponent(transaction.buyOrder)}?${new URLSearchParams({ token })}`,
    fileName: receiptFileName(bill.accountCode),
    expiresAt: new Date((Math.floor(now.getTime() / 1000) + RECEIPT_LINK_TTL_SECONDS) * 1000).toISOString(),
  };
}

/**
 * GET /payment/receipt/download/{buyOrder}?token=: the PDF, when the link is genuine, unexpired, for this payment,
 * made since the user's last password change, the user may still reach the bill and the payment still pays it.
 */
export async function downloadReceipt(
  deps: AppDeps,
  rawBuyOrder: unknown,
  query: unknown,
  meta: RequestMeta,
  now: Date = new Date(),
): Promise<{ fileName: string; content: Uint8Array }> {
  const signed = ZSignedLinkQuery.safeParse(query ?? {});
  const link = signed.success ? await verifyLink(deps.config, signed.data.token, ["payment-receipt"], now) : null;
  if (!link || typeof rawBuyOrder !== "string" || link.ref !== rawBuyOrder) throw new AppError("FORBIDDEN", refundMessages.linkInvalid);
  const user = await deps.prisma.user.findUnique({ where: { id: link.userId }, select: sessionUserSelect });
  if (!user || !(await linkStillOpens(deps, link, user)) || firstLoginRefusal(user, await linkSignInMethod(deps, link)))
    throw new AppError("FORBIDDEN", refundMessages.linkInvalid);
  const transaction = await deps.prisma.paymentTransaction.findUnique({ where: { buyOrder: link.ref } });
  if (!transaction) throw new AppError("NOT_FOUND", refundMessages.noReceipt);
  // A link made for a caregiver names the dependent; the caregiver's link to them is checked again now.
  const onBehalf = link.patientId === undefined ? meta : { ...meta, actingFor: String(link.patientId) };
  const bill = await reachableBill(deps, user, onBehalf, "payment.receipt.download", transaction.billId);
  if (!transaction.paidBill || transaction.status !== "AUTHORIZED") throw new AppError("NOT_FOUND", refundMessages.noReceipt);
  const content = await receiptPdf(receiptData(transaction, bill, bill.user), now);
  await audit(deps, user, meta, paymentAudit("payment.receipt.download", transaction, {}, bill.userId));
  return { fileName: receiptFileName(bill.accountCode), content };
}
