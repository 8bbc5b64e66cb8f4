import { z } from "zod";

// Input schemas and messages of the card payment calls (SPEC §4 payment flow, §7), shared by the REST routes, the tRPC
// router and the services: one validation, one message for each refusal.

export const paymentMessages = {
  billNotFound: "Cuenta no encontrada",
  transactionNotFound: "Transacción no encontrada",
  alreadyPaid: "La cuenta ya está pagada",
  nothingToPay: "Esta cuenta no tiene monto por pagar. Si cree que es un error, comuníquese con la clínica.",
  inProgress: "Ya hay un pago en curso para esta cuenta. Termínelo o espere unos minutos antes de intentarlo de nuevo.",
  stillProcessing: "El pago se está procesando, por favor espere unos segundos y vuelva a intentarlo",
  notFinished: "El pago aún no ha sido completado en el proveedor",
  invalidAccount: "Cuenta inválida",
  invalidToken: "Token de pago inválido",
  invalidBuyOrder: "Orden de compra inválida",
  missingToken: "Falta el token o la orden de compra del pago",
} as const;

const ZAccountId = z.coerce
  .number({ error: paymentMessages.invalidAccount })
  .int({ error: paymentMessages.invalidAccount })
  .positive({ error: paymentMessages.invalidAccount })
  .max(2_147_483_647, { error: paymentMessages.invalidAccount });

export const ZStartPaymentInput = z.object({
  accountId: ZAccountId,
  /** Sent by the web app (SPEC §7) but never trusted: the amount charged is the stored bill's. */
  amount: z.unknown().optional().describe("Se ignora: se cobra el monto guardado de la cuenta"),
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

// Issue 28: the receipt of a paid bill, staff refunds ('Anular pago') and the patient's 'Historial de pagos'.

export const refundMessages = {
  reasonRequired: "Indique el motivo de la anulación",
  reasonTooShort: "El motivo debe tener al menos 5 caracteres",
  reasonTooLong: "El motivo puede tener hasta 500 caracteres",
  noPayment: "Esta cuenta no tiene un pago con tarjeta que se pueda anular",
  noReceipt: "Esta cuenta no tiene un pago con tarjeta registrado",
  refused:
    "Webpay rechazó la anulación, así que la cuenta sigue pagada. Revise el pago en el portal de Transbank o comuníquese con soporte.",
  providerDown:
    "Webpay no respondió, así que la cuenta sigue pagada. Intente de nuevo en unos minutos: si Webpay alcanzó a anular el pago, el portal lo confirmará.",
  inProgress: "Otra persona está anulando este pago en este momento. Espere unos segundos y recargue la página.",
  linkInvalid: "El enlace del comprobante no es válido o venció. Vuelva a descargarlo desde el portal.",
} as const;

export const REFUND_REASON_MIN = 5;
export const REFUND_REASON_MAX = 500;

/** 'Anular pago' on the staff bill page: the bill and why (kept with the refund and in the audit). */
export const ZRefundPaymentInput = z.object({
  accountId: ZAccountId,
  reason: z
    .string({ error: refundMessages.reasonRequired })
    .trim()
    .min(1, { error: refundMessages.reasonRequired })
    .min(REFUND_REASON_MIN, { error: refundMessages.reasonTooShort })
    .max(REFUND_REASON_MAX, { error: refundMessages.reasonTooLong }),
});

/** The form of 'Anular pago' (the same rule for the reason, without the bill). */
export const refundFormSchema = ZRefundPaymentInput.pick({ reason: true });

/** The receipt of a bill, or its card payment as staff see it. */
export const ZBillPaymentInput = z.object({ accountId: ZAccountId });

/** 'Historial de pagos', newest first, 10 a page. */
export const ZPaymentHistoryInput = z.object({
  page: z.coerce
    .number({ error: "Página inválida" })
    .int({ error: "Página inválida" })
    .min(1, { error: "Página inválida" })
    .max(100_000)
    .default(1),
});
