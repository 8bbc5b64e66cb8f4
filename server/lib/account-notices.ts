import type { AppDeps } from "../deps.ts";
import { escapeHtml, type MailMessage } from "../providers/mail/mail.provider.ts";

// Notices to a person about changes to their own account, whoever made them (the person, or staff): a takeover of an
// account — a changed e-mail, a password set by someone else — must not go unnoticed (issue 23, finding 6). They never
// carry a password or a link that signs in.

/** Hides most of an address: "maria.gonzalez@correo.cl" → "ma***@correo.cl". */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 2)}***@${domain}`;
}

function notice(to: string, subject: string, paragraphs: string[]): MailMessage {
  return {
    to,
    subject: `Portal Pacientes - ${subject}`,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join(""),
  };
}

const byWhom = (byStaff: boolean) => (byStaff ? "el personal de la clínica" : "usted, desde su cuenta");

/** To the previous address: the account's e-mail changed, so recovery cannot be redirected quietly. */
export function emailChangedNotice(previous: string, next: string, options: { byStaff: boolean }): MailMessage {
  return notice(previous, "Cambio de correo electrónico", [
    "Hola:",
    `El correo electrónico de su cuenta en el Portal Pacientes se cambió a ${maskEmail(next)} (cambio hecho por ${byWhom(options.byStaff)}). Las recuperaciones de contraseña llegarán a esa dirección.`,
    "Si usted no pidió este cambio, comuníquese con la clínica de inmediato.",
  ]);
}

/** To the account's address: staff set a new password (it is not in the mail; the clinic gives it to the person). */
export function passwordSetByStaffNotice(to: string): MailMessage {
  return notice(to, "Cambio de contraseña", [
    "Hola:",
    "El personal de la clínica le asignó una nueva contraseña en el Portal Pacientes. Sus sesiones abiertas se cerraron, y al ingresar con ella se le pedirá elegir una contraseña propia.",
    "Si usted no pidió este cambio, comuníquese con la clínica de inmediato.",
  ]);
}

/** To a staff account's address: a browser it had not used before signed in (issue 27). */
export function newDeviceNotice(to: string, device: { userAgent: string; ip: string; at: string }): MailMessage {
  return notice(to, "Nuevo ingreso a su cuenta", [
    "Hola:",
    `Se ingresó a su cuenta del Portal Pacientes desde un dispositivo nuevo: ${device.userAgent || "navegador desconocido"}, dirección ${device.ip}, ${device.at}.`,
    "Si fue usted, no necesita hacer nada. Si no, cierre esa sesión en 'Mi cuenta' (Sesiones activas), cambie su contraseña y comuníquese con un administrador.",
  ]);
}

/** To the account's address: an administrator reset the second factor (issue 27). */
export function secondFactorResetNotice(to: string): MailMessage {
  return notice(to, "Verificación en dos pasos restablecida", [
    "Hola:",
    "Un administrador restableció la verificación en dos pasos de su cuenta en el Portal Pacientes. Sus sesiones abiertas se cerraron; en su próximo ingreso deberá configurarla de nuevo con su aplicación de autenticación.",
    "Si usted no pidió este cambio, comuníquese con la clínica de inmediato.",
  ]);
}

/** Sends a notice after the answer (tracked background work); a failure is logged, never shown to whoever made the change. */
export function sendAccountNotice(deps: Pick<AppDeps, "providers" | "background">, message: MailMessage, what: string): void {
  deps.background.run(`${what} notice failed`, () => deps.providers.mail.send(message));
}
