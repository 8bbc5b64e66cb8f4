import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

export interface ReportPdfContent {
  title: string;
  subtitle: string;
  patientRut: string;
  date: string;
  /** Rows of the report body, label and value. */
  rows: Array<[string, string]>;
  footer: string;
}

/** A small but real PDF report (one A4 page), as a laboratory or imaging system would attach it. */
export async function renderReportPdf(content: ReportPdfContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(content.title);
  pdf.setAuthor("Simulador de proveedores – Portal Pacientes");
  pdf.setCreationDate(new Date(`${content.date}T12:00:00Z`));
  pdf.setModificationDate(new Date(`${content.date}T12:00:00Z`));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  page.drawText(content.title, { x: 50, y, size: 18, font: bold, color: rgb(0.1, 0.3, 0.6) });
  y -= 22;
  page.drawText(content.subtitle, { x: 50, y, size: 11, font });
  y -= 30;
  page.drawText(`RUT paciente: ${content.patientRut}`, { x: 50, y, size: 11, font });
  y -= 16;
  page.drawText(`Fecha: ${content.date}`, { x: 50, y, size: 11, font });
  y -= 30;
  for (const [label, value] of content.rows) {
    page.drawText(label, { x: 50, y, size: 11, font: bold });
    page.drawText(value, { x: 300, y, size: 11, font });
    y -= 18;
  }
  y -= 20;
  page.drawText(content.footer, { x: 50, y, size: 9, font, color: rgb(0.4, 0.4, 0.4) });
  return pdf.save({ useObjectStreams: false });
}
