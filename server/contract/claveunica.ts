// Why a sign-in with ClaveÚnica ends back at /login (/login?claveunica=<reason>, issue 43): the server sends these, the
// login page words each one (web/src/features/auth/claveunica-messages.ts).

export const claveUnicaFailures = [
  "cancelado",
  "no-disponible",
  "rechazado",
  "vencido",
  "sin-cuenta",
  "personal",
  "cuenta-cerrada",
  "otra-clinica",
] as const;

export type ClaveUnicaFailure = (typeof claveUnicaFailures)[number];

/**
 * Profile fields from ClaveÚnica's claims, only for those the patient has left empty: the web fills them in the
 * profile form for the patient to confirm with 'Guardar datos'; nothing is saved from them on its own.
 */
export interface ClaveUnicaSuggested {
  firstName?: string;
  secondName?: string;
  lastName?: string;
  secondLastName?: string;
  email?: string;
}
