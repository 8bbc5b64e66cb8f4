import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { Clinic } from "../../contract/clinics.ts";

const paragraphs = (clinicTitle: string) => [
  `Estos términos y condiciones regulan el uso del Portal Pacientes de ${clinicTitle}, parte de la red de clínicas regionales.`,
  "1. Uso del portal. El portal permite agendar horas, revisar resultados de laboratorio e imagenología, consultar y pagar cuentas hospitalarias y actualizar sus datos personales. El acceso es personal e intransferible: usted es responsable de mantener su contraseña en reserva.",
  "2. Datos personales y sensibles. Sus datos se tratan conforme a la Ley N° 19.628 y la Ley N° 21.719 sobre protección de datos personales. Los datos de salud son datos sensibles: al aceptar estos términos usted consiente expresamente su tratamiento para fines de atención, agendamiento, entrega de resultados y facturación.",
  "3. Ficha clínica. La información clínica es reservada conforme a la Ley N° 20.584 sobre derechos y deberes de los pacientes; solo acceden a ella usted y las personas que intervienen en su atención.",
  "4. Derechos. Usted puede solicitar el acceso, rectificación, supresión y portabilidad de sus datos dirigiéndose a la clínica.",
  "5. Resultados. Los informes pueden demorar hasta 48 horas hábiles en estar disponibles. Ante dudas, consulte a su médico tratante.",
  "6. Pagos. Los pagos con tarjeta se procesan a través de Transbank Webpay Plus; la clínica no almacena los datos de su tarjeta.",
  "7. Registro. Cada acceso a resultados, documentos y cuentas queda registrado para su seguridad.",
];

function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if ((line + " " + word).trim().length > maxChars) {
      lines.push(line);
      line = word;
    } else line = (line + " " + word).trim();
  }
  if (line) lines.push(line);
  return lines;
}

/** Renders the terms and conditions of one clinic as a real PDF document. */
export async function renderTermsPdf(clinic: Clinic, version: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Términos y condiciones - ${clinic.title}`);
  pdf.setAuthor(clinic.title);
  pdf.setCreationDate(new Date("2026-01-01T00:00:00Z"));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  page.drawText("PORTAL PACIENTES", { x: 50, y, size: 11, font: bold, color: rgb(0.1, 0.3, 0.6) });
  y -= 28;
  page.drawText("Términos y condiciones de uso", { x: 50, y, size: 18, font: bold });
  y -= 20;
  page.drawText(`${clinic.title} - versión ${version}`, { x: 50, y, size: 11, font });
  y -= 30;
  for (const paragraph of paragraphs(clinic.title)) {
    for (const line of wrap(paragraph, 90)) {
      page.drawText(line, { x: 50, y, size: 10.5, font });
      y -= 15;
    }
    y -= 8;
  }
  return pdf.save();
}
