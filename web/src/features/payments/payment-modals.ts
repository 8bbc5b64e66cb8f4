import type { PaymentResult } from "@contract/payments.dto.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { formatChileDateTime } from "../../lib/dates.ts";
import { formatClp } from "../../lib/money.ts";

// The payment-result modals of SPEC §8 'Payment'.

export const paymentAcceptedTitle = "Pago aceptado";
export const paymentRejectedTitle = "Pago rechazado";

export function rejectedText(order: string): string {
  return (
    `El pago de su cuenta hospitalaria con número de Orden de Compra ${order}, fue rechazado. ` +
    "Las posibles causas de este rechazo son: error en el ingreso de los datos de su tarjeta de crédito o débito " +
    "(fecha y/o código de seguridad), su tarjeta de crédito o débito no cuenta con saldo suficiente, o su tarjeta aún no " +
    "ha sido habilitada en el sistema financiero. Si el problema persiste, comuníquese con la clínica."
  );
}

/**
 * 'Anular' at Webpay (the TBK_TOKEN return): the spec's title stays, but the card-fault causes of a rejection would
 * frighten someone who simply cancelled (issue 33), so the text says what happened and that nothing was charged.
 */
export function cancelledText(order: string): string {
  const ofOrder = order ? ` con número de Orden de Compra ${order}` : "";
  return (
    `Usted anuló el pago de su cuenta hospitalaria${ofOrder}. No se realizó ningún cargo a su tarjeta. ` +
    "La cuenta sigue pendiente: puede pagarla cuando quiera con el botón 'Pagar'."
  );
}

export function acceptedDetails(result: PaymentResult): Array<[string, string]> {
  return [
    ["Número de orden de compra", result.buyOrder],
    ["Nombre del comercio", result.merchantName],
    ["Monto", `${formatClp(result.amount)} CLP`],
    ["Código de autorización", result.authorization_code ?? "—"],
    ["Fecha", result.transaction_date ? formatChileDateTime(result.transaction_date) : "—"],
    ["Tipo de pago", result.payment_type || "—"],
    ["Tipo de cuotas", result.installment_type || "—"],
    ["Número de cuotas", String(result.installments_number ?? 0)],
    ["Monto de cada cuota", result.installments_amount ? formatClp(result.installments_amount) : "—"],
    ["Últimos 4 dígitos de la tarjeta", result.card_number ? `**** ${result.card_number}` : "—"],
    ["Descripción", result.description],
  ];
}

export function showPaymentAccepted(result: PaymentResult): Promise<unknown> {
  return showModal({
    title: paymentAcceptedTitle,
    body: "El pago de su cuenta hospitalaria fue recibido exitosamente.",
    details: acceptedDetails(result),
    buttons: ["Entendido"],
  });
}

export function showPaymentRejected(order: string): Promise<unknown> {
  return showModal({ title: paymentRejectedTitle, body: rejectedText(order), icon: "none", buttons: ["Entendido"] });
}

export function showPaymentCancelled(order: string): Promise<unknown> {
  return showModal({ title: paymentRejectedTitle, body: cancelledText(order), icon: "none", buttons: ["Entendido"] });
}
