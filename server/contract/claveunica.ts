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
