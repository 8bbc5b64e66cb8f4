import { z } from "zod";
import { ZPaymentStatusValue } from "../../contract/payments.dto.ts";
import { AppError } from "../../lib/errors.ts";

// What the payment features need from a card payment provider (Webpay Plus semantics). The one implementation is
// webpay-plus-payments.client.ts over Transbank's official SDK; the mock in mocks/webpay speaks the same protocol.

/** The transaction object of commit and status, as far as the portal reads it (unknown fields are ignored). */
export const ZProviderTransaction = z.object({
  vci: z.string().optional(),
  amount: z.number(),
  status: ZPaymentStatusValue,
  buy_order: z.string(),
  session_id: z.string().optional(),
  card_detail: z.object({ card_number: z.string().nullish() }).nullish(),
  accounting_date: z.string().optional(),
  transaction_date: z.string().optional(),
  authorization_code: z.string().nullish(),
  payment_type_code: z.string().nullish(),
  response_code: z.number().nullish(),
  installments_number: z.number().nullish(),
  installments_amount: z.number().nullish(),
  balance: z.number().nullish(),
});
export type ProviderTransaction = z.infer<typeof ZProviderTransaction>;

export const ZCreatedTransaction = z.object({ token: z.string().min(1).max(64), url: z.string().url() });
export type CreatedTransaction = z.infer<typeof ZCreatedTransaction>;

export const ZRefundResult = z.object({
  type: z.enum(["REVERSED", "NULLIFIED"]),
  authorization_code: z.string().optional(),
  authorization_date: z.string().optional(),
  nullified_amount: z.number().optional(),
  balance: z.number().optional(),
  response_code: z.number().optional(),
});
export type RefundResult = z.infer<typeof ZRefundResult>;

export interface CreateTransactionInput {
  buyOrder: string;
  sessionId: string;
  amount: number;
  returnUrl: string;
}

export interface PaymentsProvider {
  /** Origin of the provider's payment form, which the portal's pages post to (CSP form-action). */
  readonly formOrigin: string;
  create(input: CreateTransactionInput): Promise<CreatedTransaction>;
  commit(token: string): Promise<ProviderTransaction>;
  status(token: string): Promise<ProviderTransaction>;
  refund(token: string, amount: number): Promise<RefundResult>;
}

/**
 * The provider answered and refused the operation (HTTP 4xx with an error_message, e.g. committing an aborted or
 * timed-out transaction). Not an outage: the portal records the outcome.
 */
export class PaymentRefusedError extends AppError {
  constructor(
    readonly httpStatus: number,
    readonly providerMessage: string,
  ) {
    super("CONFLICT", "El proveedor de pagos rechazó la operación");
    this.name = "PaymentRefusedError";
  }
}

export const providerUnavailableMessage = "El servicio de pago no está disponible en este momento, por favor intente más tarde";
export const providerTimeoutMessage = "El servicio de pago no respondió a tiempo, por favor intente más tarde";
