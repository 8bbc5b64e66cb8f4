import { escapeHtml, type MailMessage } from "../providers/mail/mail.provider.ts";

// The notices carry no health data and nothing that signs in: what kind of thing arrived and the clinic's portal
// address, where the patient reads it after signing in.

export const NEW_RESULT_SUBJECT = "Tiene un nuevo resultado disponible";
export const NEW_BILL_SUBJECT = "Tiene una nueva cuenta hospitalaria";

function notice(to: string, subject: string, clinicTitle: string, portalUrl: string, seeIt: string): MailMessage {
  const paragraphs = [
    "Hola:",
    `${subject} en el Portal Pacientes de ${clinicTitle}.`,
    `Para ${seeIt}, ingrese al portal con su RUT y contraseña: ${portalUrl}`,
    "Por su seguridad, este correo no incluye información de su salud ni de sus cuentas.",
    "Si no desea recibir estos avisos, desactívelos en 'Mi cuenta', sección 'Avisos'.",
  ];
  return {
    to,
    subject: `${clinicTitle} - ${subject}`,
    text: paragraphs.join("\n\n"),
    html: paragraphs
      .map((paragraph) =>
        paragraph.includes(portalUrl)
          ? `<p>Para ${seeIt}, ingrese al portal con su RUT y contraseña: <a href="${escapeHtml(portalUrl)}">${escapeHtml(portalUrl)}</a></p>`
          : `<p>${escapeHtml(paragraph)}</p>`,
      )
      .join("\n"),
  };
}

export const newResultNotice = (to: string, clinicTitle: string, portalUrl: string) =>
  notice(to, NEW_RESULT_SUBJECT, clinicTitle, portalUrl, "verlo");

export const newBillNotice = (to: string, clinicTitle: string, portalUrl: string) =>
  notice(to, NEW_BILL_SUBJECT, clinicTitle, portalUrl, "verla");
