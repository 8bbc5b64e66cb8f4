import { z } from "zod";

// What the payment calls answer (SPEC §3 payment result fields, §8 'Pago aceptado'), shared with the web; the types
// are inferred from the schemas, which also describe the responses in the API document (/api/docs).

/** Webpay Plus transaction states (the provider's own values). */
export const ZPaymentStatusValue = z.enum([
  "INITIALIZED",
  "AUTHORIZED",
  "REVERSED",
  "FAILED",
  "NULLIFIED",
  "PARTIALLY_NULLIFIED",
  "CAPTURED",
]);

export const ZPaymentResult = z.object({
  approved: z.boolean().describe("Verdadero solo si esta transacción pagó la cuenta"),
  status: ZPaymentStatusValue.describe("Estado en el proveedor (INITIALIZED mientras no se liquida)"),
  failureReason: z
    .string()
    .nullable()
    .describe("rejected, aborted, timeout, expired, mismatch, create-failed; null si fue aprobado o sigue pendiente"),
  buyOrder: z.string(),
  accountId: z.number().int(),
  accountCode: z.string(),
  amount: z.number().int(),
  merchantName: z.string(),
  description: z.string(),
  authorization_code: z.string().nullable(),
  transaction_date: z.string().nullable(),
  payment_type: z.string(),
  payment_type_code: z.string().nullable(),
  installment_type: z.string(),
  installments_number: z.number().int().nullable(),
  installments_amount: z.number().nullable(),
  card_number: z.string().nullable().describe("Últimos cuatro dígitos, como los informa el proveedor"),
});
export type PaymentResult = z.infer<typeof ZPaymentResult>;

/** POST payment/generate-transaction-new-prod: where the browser posts token_ws to pay. */
export const ZStartedPayment = z.object({ url: z.string(), token: z.string() });

/** GET payment/account-status: whether the bill is paid or has a payment in progress. */
export const ZAccountPaymentStatus = z.object({
  accountId: z.number().int(),
  accountCode: z.string(),
  isPaid: z.boolean(),
  status: z.string(),
  paymentInProgress: z.boolean(),
  lastPayment: ZPaymentResult.nullable(),
});
export type AccountPaymentStatus = z.infer<typeof ZAccountPaymentStatus>;

// Issue 28: 'Historial de pagos', a bill's card payment as staff see it, and a refund.

/** What became of a payment attempt, in the patient's words. */
export const ZPaymentAttemptResult = z.enum(["aceptado", "rechazado", "anulado", "pendiente"]);
export type PaymentAttemptResult = z.infer<typeof ZPaymentAttemptResult>;

export const ZPaymentAttempt = z.object({
  buyOrder: z.string(),
  accountId: z.number().int(),
  accountCode: z.string(),
  amount: z.number().int(),
  result: ZPaymentAttemptResult,
  detail: z.string().describe("Por qué terminó así, en palabras del paciente"),
  at: z.string().describe("Fecha del pago en el proveedor, o de su inicio (ISO 8601)"),
  hasReceipt: z.boolean().describe("Si es el pago vigente de una cuenta pagada (ofrece 'Comprobante')"),
});
export type PaymentAttempt = z.infer<typeof ZPaymentAttempt>;

export const ZPaymentHistory = z.object({
  items: z.array(ZPaymentAttempt),
  total: z.number().int(),
  page: z.number().int(),
});
export type PaymentHistory = z.infer<typeof ZPaymentHistory>;

export const ZRefundView = z.object({
  status: z.enum(["PENDING", "CONFIRMED", "FAILED"]),
  type: z.enum(["REVERSED", "NULLIFIED"]).nullable().describe("REVERSED: reversa (monto total antes de 3 horas); NULLIFIED: anulación"),
  amount: z.number().int(),
  reason: z.string(),
  requestedBy: z.string(),
  at: z.string(),
  authorizationCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
});
export type RefundView = z.infer<typeof ZRefundView>;

/** The bill's card payment as staff see it on the bill's page, and whether 'Anular pago' applies. */
export const ZBillPayment = z.object({
  accountId: z.number().int(),
  payment: z
    .object({
      buyOrder: z.string(),
      amount: z.number().int(),
      authorizationCode: z.string().nullable(),
      cardNumber: z.string().nullable(),
      paymentType: z.string(),
      transactionDate: z.string().nullable(),
      status: ZPaymentStatusValue,
    })
    .nullable(),
  refundable: z.boolean(),
  refund: ZRefundView.nullable(),
});
export type BillPayment = z.infer<typeof ZBillPayment>;

export const ZReceiptLink = z.object({ url: z.string(), fileName: z.string(), expiresAt: z.string() });
