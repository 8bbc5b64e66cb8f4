// What the payment calls answer (SPEC §3 payment result fields, §8 'Pago aceptado'), shared with the web.

/** Webpay Plus transaction states (the provider's own values). */
export type PaymentStatusValue = "INITIALIZED" | "AUTHORIZED" | "REVERSED" | "FAILED" | "NULLIFIED" | "PARTIALLY_NULLIFIED" | "CAPTURED";

export interface PaymentResult {
  /** True only when the bill was paid by this transaction. */
  approved: boolean;
  /** Provider status (INITIALIZED while not settled). */
  status: PaymentStatusValue;
  /** rejected, aborted, timeout, expired, mismatch, create-failed; null when approved or pending. */
  failureReason: string | null;
  buyOrder: string;
  accountId: number;
  accountCode: string;
  amount: number;
  merchantName: string;
  description: string;
  authorization_code: string | null;
  transaction_date: string | null;
  payment_type: string;
  payment_type_code: string | null;
  installment_type: string;
  installments_number: number | null;
  installments_amount: number | null;
  /** Last four digits, as the provider reports them. */
  card_number: string | null;
}
