import { formatChileTime } from "../../lib/chile-time.ts";

// Issue 33: a payment started in a tab that was then closed blocks a new try for PAYMENT_PENDING_MINUTES. The refusal
// says until when (in Chile's time, as the patient's clock reads it), so the patient is not left guessing.

/** The 409 of a new payment while one is in progress: what to do, and the time a new try is allowed. */
export function paymentInProgressMessage(startedAt: Date, pendingWindowMs: number): string {
  const until = new Date(startedAt.getTime() + pendingWindowMs);
  const time = formatChileTime(until.toISOString()).slice(11, 16);
  return (
    "Ya hay un pago en curso para esta cuenta. Termínelo en la pestaña de Webpay o, si la cerró, " +
    `podrá intentarlo de nuevo a partir de las ${time}.`
  );
}
