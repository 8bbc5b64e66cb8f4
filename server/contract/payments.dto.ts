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
