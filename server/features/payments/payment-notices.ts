import { escapeHtml, type MailMessage } from "../../providers/mail/mail.provider.ts";

// The patient's mail when staff refund a payment (issue 28), sent through the portal's one mail path.

export interface RefundNotice {
  to: string;
  firstName: string | null;
  clinic: string;
  accountCode: string;
  amount: string;
  buyOrder: string;
  cardNumber: string | null;
  paidAt: string;
  reason: string;
}

export function paymentRefundedNotice(notice: RefundNotice): MailMessage {
  const paragraphs = [
    notice.firstName ? `Hola ${notice.firstName}:` : "Hola:",
    `${notice.clinic} anuló el pago de su cuenta hospitalaria N° ${notice.accountCode} por ${notice.amount} (orden de compra ${notice.buyOrder}), hecho el ${notice.paidAt} (hora de Chile).`,
    `Motivo: ${notice.reason}`,
    `El monto se devolverá a su tarjeta${notice.cardNumber ? ` terminada en ${notice.cardNumber}` : ""}; el plazo en que lo verá depende de su banco.`,
    "La cuenta vuelve a quedar pendiente de pago en el Portal Pacientes ('Cuentas hospitalarias'). Si tiene dudas, comuníquese con la clínica.",
  ];
  return {
    to: notice.to,
    subject: "Portal Pacientes - Pago anulado",
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join(""),
  };
}
