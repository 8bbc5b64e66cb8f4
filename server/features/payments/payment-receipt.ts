import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { clinicTitle } from "../../contract/clinics.ts";
import { formatClp } from "../../contract/money.ts";
import { formatRut } from "../../contract/rut.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import { formatChileTime } from "../../lib/chile-time.ts";
import { installmentTypeLabel, PAYMENT_DESCRIPTION, paymentTypeLabel } from "./payment-result.ts";

// 'Comprobante' (issue 28): the PDF receipt of a paid bill, written from the payment result the portal stored when the
// provider confirmed it (never from anything the browser sends).

export interface ReceiptData {
  clinic: string;
  patientName: string;
  patientRut: string;
  accountCode: string;
  amount: string;
  buyOrder: string;
  authorizationCode: string;
  cardNumber: string;
  paymentType: string;
  installments: string;
  /** 'dd-mm-aaaa HH:mm' in Chile's time. */
  paidAt: string;
  description: string;
}

/** An instant as 'dd-mm-aaaa HH:mm' in Chile's time, as the screens show it. */
export function chileDateTime(at: Date): string {
  const [day = "", time = ""] = formatChileTime(at.toISOString()).split(" ");
  const [year, month, date] = day.split("-");
  return `${date}-${month}-${year} ${time.slice(0, 5)}`;
}

export function receiptData(
  transaction: PaymentTransaction,
  bill: { accountCode: string; clinicCode: string },
  patient: { rut: string; firstName: string | null; secondName: string | null; lastName: string | null; secondLastName: string | null },
): ReceiptData {
  const name = [patient.firstName, patient.secondName, patient.lastName, patient.secondLastName].filter(Boolean).join(" ");
  return {
    clinic: clinicTitle(bill.clinicCode),
    patientName: name || "Paciente",
    patientRut: formatRut(patient.rut),
    accountCode: bill.accountCode,
    amount: formatClp(transaction.amount),
    buyOrder: transaction.buyOrder,
    authorizationCode: transaction.authorizationCode ?? "",
    cardNumber: transaction.cardNumber ? `**** **** **** ${transaction.cardNumber}` : "",
    paymentType: paymentTypeLabel(transaction.paymentTypeCode),
    installments: installmentTypeLabel(transaction.paymentTypeCode, transaction.installmentsNumber),
    paidAt: chileDateTime(transaction.transactionDate ?? transaction.committedAt ?? transaction.createdAt),
    description: PAYMENT_DESCRIPTION,
  };
}

export const receiptFileName = (accountCode: string) => `comprobante-cuenta-${accountCode}.pdf`;

const MARGIN = 56;

function drawRow(page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }, y: number, label: string, value: string): void {
  page.drawText(label, { x: MARGIN, y, size: 11, font: fonts.bold, color: rgb(0.25, 0.25, 0.25) });
  page.drawText(value, { x: MARGIN + 190, y, size: 11, font: fonts.regular });
}

/** The receipt as a one-page A4 PDF (Helvetica, whose WinAnsi encoding covers Spanish accents, ñ and °). */
export async function receiptPdf(data: ReceiptData, issuedAt: Date): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(`Comprobante de pago - cuenta ${data.accountCode}`);
  document.setAuthor(data.clinic);
  document.setCreator("Portal Pacientes");
  document.setProducer("Portal Pacientes");
  document.setCreationDate(issuedAt);
  document.setModificationDate(issuedAt);
  const page = document.addPage([595.28, 841.89]);
  const fonts = { regular: await document.embedFont(StandardFonts.Helvetica), bold: await document.embedFont(StandardFonts.HelveticaBold) };
  let y = 841.89 - MARGIN - 10;
  page.drawText(data.clinic, { x: MARGIN, y, size: 18, font: fonts.bold, color: rgb(0.05, 0.3, 0.55) });
  y -= 28;
  page.drawText("Comprobante de pago", { x: MARGIN, y, size: 15, font: fonts.bold });
  y -= 18;
  page.drawText(data.description, { x: MARGIN, y, size: 11, font: fonts.regular, color: rgb(0.3, 0.3, 0.3) });
  y -= 34;
  const rows: Array<[string, string]> = [
    ["Paciente", data.patientName],
    ["RUT", data.patientRut],
    ["N° de cuenta", data.accountCode],
    ["Monto pagado", data.amount],
    ["Orden de compra", data.buyOrder],
    ["Código de autorización", data.authorizationCode],
    ["Tarjeta", data.cardNumber],
    ["Tipo de pago", data.paymentType],
    ["Cuotas", data.installments],
    ["Fecha y hora del pago", `${data.paidAt} (hora de Chile)`],
  ];
  for (const [label, value] of rows) {
    if (!value) continue;
    drawRow(page, fonts, y, label, value);
    y -= 22;
  }
  y -= 16;
  page.drawText(`Emitido el ${chileDateTime(issuedAt)} (hora de Chile) desde el Portal Pacientes, con el resultado del pago`, {
    x: MARGIN,
    y,
    size: 9,
    font: fonts.regular,
    color: rgb(0.35, 0.35, 0.35),
  });
  page.drawText("informado por Webpay (Transbank).", { x: MARGIN, y: y - 12, size: 9, font: fonts.regular, color: rgb(0.35, 0.35, 0.35) });
  return document.save();
}
