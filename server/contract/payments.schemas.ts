import { z } from "zod";

// Input schemas and messages of the card payment calls (SPEC §4 payment flow, §7), shared by the REST routes, the tRPC
// router and the services: one validation, one message for each refusal.

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
