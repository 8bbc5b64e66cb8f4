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

export const APPOINTMENT_REMINDER_SUBJECT = "Recordatorio de su hora de mañana";

export interface ReminderDetails {
  clinicTitle: string;
  /** "29-11-2026" and "10:30", in Chile time. */
  date: string;
  time: string;
  /** The place's name and address in one line. */
  place: string;
  /** 'Mis citas' on the clinic's portal. */
  portalUrl: string;
}

/**
 * The reminder the day before an appointment (issue 44): date, time and place, which the patient needs to arrive and
 * which say nothing of their health. No specialty and no professional (a name can tell the specialty): a mailbox may be
 * read by others. Cancelling or confirming happens in 'Mis citas', after signing in.
 */
export function appointmentReminder(to: string, details: ReminderDetails): MailMessage {
  const intro = `Le recordamos que mañana tiene una hora reservada en ${details.clinicTitle}:`;
  const facts = [`Fecha: ${details.date}`, `Hora: ${details.time}`, `Lugar: ${details.place}`];
  const action =
    "Si no podrá asistir, anule la hora para que otra persona pueda usarla. Para anularla o confirmar su asistencia, ingrese a 'Mis citas' con su RUT y contraseña:";
  const closing = [
    "Por su seguridad, este correo no incluye la especialidad ni el profesional de su hora.",
    "Si no desea recibir estos recordatorios, desactívelos en 'Mi cuenta', sección 'Avisos'.",
  ];
  return {
    to,
    subject: `${details.clinicTitle} - ${APPOINTMENT_REMINDER_SUBJECT}`,
    text: ["Hola:", intro, facts.join("\n"), `${action} ${details.portalUrl}`, ...closing].join("\n\n"),
    html: [
      "<p>Hola:</p>",
      `<p>${escapeHtml(intro)}</p>`,
      `<ul>${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join("")}</ul>`,
      `<p>${escapeHtml(action)} <a href="${escapeHtml(details.portalUrl)}">${escapeHtml(details.portalUrl)}</a></p>`,
      ...closing.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ].join("\n"),
  };
}
