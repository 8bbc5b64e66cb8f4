import type { ClaveUnicaFailure } from "@contract/claveunica.ts";

// What /login says when a sign-in with ClaveÚnica came back refused (/login?claveunica=<reason>, issue 43). The
// reasons are the server's ClaveUnicaFailure (server/features/claveunica/claveunica.service.ts), plus 'sin-sesion' when
// this browser had no sign-in to pick up at /claveunica/listo. Each says what happened and what the patient can do.

const PASSWORD_STILL_WORKS = "También puede ingresar con su Rut y contraseña.";

const claveUnicaMessages: Record<ClaveUnicaFailure | "sin-sesion", string> = {
  cancelado: `Canceló el ingreso con ClaveÚnica. Puede intentarlo de nuevo. ${PASSWORD_STILL_WORKS}`,
  "no-disponible": `ClaveÚnica no está respondiendo en este momento. Vuelva a intentarlo en unos minutos. ${PASSWORD_STILL_WORKS}`,
  rechazado: `No pudimos validar su ingreso con ClaveÚnica, por eso no inició sesión. Vuelva a intentarlo. ${PASSWORD_STILL_WORKS}`,
  vencido: `El ingreso con ClaveÚnica tardó demasiado y se canceló. Vuelva a intentarlo. ${PASSWORD_STILL_WORKS}`,
  "sin-cuenta":
    "Su RUN no tiene una cuenta en este portal. Pida a la clínica que le cree una. Si ya tiene una cuenta con otro Rut, ingrese con su Rut y contraseña.",
  personal:
    "Las cuentas del personal de la clínica no ingresan con ClaveÚnica. Ingrese en el acceso de administrativos con su Rut y contraseña.",
  "cuenta-cerrada": "Su cuenta del portal está cerrada, por eso no pudo ingresar. Si necesita ayuda, comuníquese con la clínica.",
  "otra-clinica": `El ingreso con ClaveÚnica empezó en el portal de otra clínica. Vuelva a intentarlo desde esta página. ${PASSWORD_STILL_WORKS}`,
  "sin-sesion": `No encontramos un ingreso con ClaveÚnica pendiente en este navegador. Vuelva a intentarlo. ${PASSWORD_STILL_WORKS}`,
};

/** The message for a refusal reason; an unknown reason reads as a failed validation. Null without a reason. */
export function claveUnicaMessage(reason: string | null): string | null {
  if (reason === null) return null;
  return Object.hasOwn(claveUnicaMessages, reason) ? claveUnicaMessages[reason as ClaveUnicaFailure] : claveUnicaMessages.rechazado;
}
