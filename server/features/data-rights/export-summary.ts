import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { DataExportDocument } from "../../contract/data-export.schema.ts";
import { formatClp } from "../../contract/money.ts";
import { formatRut } from "../../contract/rut.ts";
import { formatChileDay } from "../../lib/chile-time.ts";
import { formatTermsDate } from "../../contract/terms-date.ts";

// resumen.pdf of 'Descargar mis datos' (issue 28): what datos.json holds, readable in Spanish.

// Calendar days (AAAA-MM-DD: bills, birth, orders, studies) turned around, never read as instants in a time zone.
const dayOf = (isoDay: string) => isoDay.split("-").reverse().join("-");
// Helvetica (WinAnsi) has no glyph for what a patient may have typed beyond Latin-1: shown as '?' instead of failing.
const printable = (text: string) => text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

class Writer {
  private page: PDFPage;
  private y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = this.newPage();
  }
  private newPage(): PDFPage {
    this.page = this.pdf.addPage([595, 842]);
    this.y = 790;
    return this.page;
  }
  line(text: string, options: { size?: number; bold?: boolean; gap?: number } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    for (const piece of wrap(printable(text), size > 12 ? 60 : 95)) {
      if (this.y < 60) this.newPage();
      this.page.drawText(piece, { x: 50, y: this.y, size, font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= size + 5;
    }
    this.y -= options.gap ?? 0;
  }
}

/** "1 documento", "3 documentos": a count in words, never "documento(s)". */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A bill's payments through the portal and its documents, in plain words (issue 45: not "0 intento(s) de pago"). */
function billExtras(bill: DataExportDocument["bills"][number]): string {
  const tries = bill.payments.length;
  const accepted = bill.payments.filter((payment) => payment.status === "AUTHORIZED").length;
  const payments =
    tries === 0
      ? "sin pagos en el portal"
      : `${count(tries, "intento de pago", "intentos de pago")} en el portal, ${accepted === 0 ? "ninguno aceptado" : count(accepted, "aceptado", "aceptados")}`;
  const files = bill.files.length === 0 ? "sin documentos" : count(bill.files.length, "documento", "documentos");
  return `${payments}; ${files}`;
}

function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if ((line + " " + word).trim().length > maxChars && line) {
      lines.push(line);
      line = word;
    } else line = (line + " " + word).trim();
  }
  lines.push(line);
  return lines;
}

export async function renderExportSummary(document: DataExportDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle("Resumen de sus datos - Portal Pacientes");
  pdf.setCreationDate(new Date(document.generatedAt));
  const out = new Writer(pdf, await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold));
  const { patient } = document;
  const name = [patient.firstName, patient.secondName, patient.lastName, patient.secondLastName].filter(Boolean).join(" ");

  out.line("Resumen de sus datos en el Portal Pacientes", { size: 16, bold: true, gap: 6 });
  out.line(
    `Preparado el ${formatChileDay(new Date(document.generatedAt))}. La descarga trae además sus datos completos en archivos que otro programa puede leer (datos.json y laboratorio.json).`,
    { gap: 10 },
  );

  out.line("Datos personales", { size: 12, bold: true });
  out.line(`Nombre: ${name || "sin registrar"}`);
  out.line(`RUT: ${formatRut(patient.rut)}`);
  out.line(`Correo electrónico: ${patient.email || "sin registrar"}`);
  out.line(`Teléfono: ${patient.phoneNumber ?? "sin registrar"}`);
  out.line(`Fecha de nacimiento: ${patient.birthDate ? dayOf(patient.birthDate) : "sin registrar"}`);
  const notices = [
    patient.emailNotices.results ? "resultados nuevos" : null,
    patient.emailNotices.bills ? "cuentas nuevas" : null,
    patient.emailNotices.appointments ? "recordatorio de sus horas" : null,
  ].filter((notice) => notice !== null);
  const noticesInWords = notices.length > 1 ? `${notices.slice(0, -1).join(", ")} y ${notices.at(-1)}` : (notices[0] ?? "ninguno");
  out.line(`Avisos por correo: ${noticesInWords}`, { gap: 10 });

  // The acceptance 'Mis datos' shows (the account's), then each version's acceptance the portal recorded since it keeps them.
  out.line("Términos y condiciones", { size: 12, bold: true });
  const accepted = formatTermsDate(patient.termsAcceptedAt);
  out.line(accepted ? `Fecha de aceptación: ${accepted}` : "Sin aceptar.");
  for (const terms of document.termsAcceptances) out.line(`Versión ${terms.version}, aceptada el ${formatTermsDate(terms.acceptedAt)}`);
  out.line("", { gap: 4 });

  out.line("Clínicas donde está registrado", { size: 12, bold: true });
  if (document.clinics.length === 0) out.line("Ninguna.");
  for (const clinic of document.clinics) out.line(`${clinic.title}, desde el ${formatChileDay(new Date(clinic.registeredAt))}`);
  out.line("", { gap: 4 });

  out.line("Cuentas hospitalarias", { size: 12, bold: true });
  if (document.bills.length === 0) out.line("No tiene cuentas hospitalarias.");
  for (const bill of document.bills) {
    out.line(
      `${bill.clinic}, cuenta ${bill.accountCode}, ${dayOf(bill.date)}: ${formatClp(bill.amount)} (${bill.status}); ${billExtras(bill)}.`,
    );
  }
  out.line("", { gap: 4 });

  out.line("Órdenes de laboratorio", { size: 12, bold: true });
  if (document.laboratoryOrders === null) out.line("El laboratorio no respondió al preparar sus datos. Pídalos de nuevo más tarde.");
  else if (document.laboratoryOrders.length === 0) out.line("No tiene órdenes de laboratorio.");
  else
    for (const order of document.laboratoryOrders)
      out.line(`${dayOf(order.date)} - orden ${order.orderNumber}: ${order.prestacion} (${order.status})`);
  out.line("", { gap: 4 });

  out.line("Estudios de imagenología", { size: 12, bold: true });
  if (document.imagingStudies === null) out.line("Imagenología no respondió al preparar sus datos. Pídalos de nuevo más tarde.");
  else if (document.imagingStudies.length === 0) out.line("No tiene estudios de imagenología.");
  else
    for (const study of document.imagingStudies)
      out.line(`${dayOf(study.date)} - ${study.description || study.modality} (${study.modality})`);
  out.line("", { gap: 8 });

  out.line(
    "Su ficha clínica se mantiene en la clínica, como exige la Ley N° 20.584. Para corregir un dato o ejercer otro derecho sobre sus datos, use 'Mis datos', sección 'Solicitudes'.",
  );
  return pdf.save();
}
