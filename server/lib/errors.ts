/** Error codes the services throw; the one error handler maps them to HTTP statuses and tRPC codes. */
export const errorStatus = {
  /** Input failed validation or a business rule (e.g. reused reset token). */
  BAD_REQUEST: 400,
  /** Missing, invalid, expired or superseded token; failed login. */
  UNAUTHORIZED: 401,
  /** Authenticated but not allowed (e.g. a patient on a staff endpoint). */
  FORBIDDEN: 403,
  /** Missing resource, or one the caller may not know exists. */
  NOT_FOUND: 404,
  /** State conflict (duplicate RUT, bill already paid). */
  CONFLICT: 409,
  /** Upload over the size limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** Rate limit reached (login attempts). */
  TOO_MANY_REQUESTS: 429,
  /** A provider (mail, payment, laboratory) failed. */
  BAD_GATEWAY: 502,
  /** A provider (mail, payments, lab, imaging) refused the call or answered something unusable; thrown by its client. */
  PROVIDER_UNAVAILABLE: 502,
  /** A provider did not answer within its configured time; thrown by its client. */
  PROVIDER_TIMEOUT: 504,
  /** The database cannot be reached right now (down or restarting): try again in a few seconds. */
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "AppError";
  }
  get status(): number {
    return errorStatus[this.code];
  }
}

export const serviceUnavailableMessage = "El servicio no está disponible en este momento. Intente nuevamente en unos segundos.";
/** Seconds a client is told to wait (Retry-After) when the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const genericErrorMessage = "Error de sistema, por favor vuelva a intentarlo";
export const loginFailedMessage = "El Rut o Contraseña ingresados son inválidos";
export const unauthorizedMessage = "Su sesión no es válida o ha expirado. Ingrese nuevamente.";
/** Login of a portal account closed at the patient's request (issue 28, 'Solicitudes'). */
export const closedAccountMessage =
  "Su cuenta del portal fue cerrada a su solicitud. Su ficha clínica sigue en la clínica; si desea volver a usar el portal, comuníquese con ella.";
export const forbiddenMessage = "No tiene permiso para acceder a esta página";
export const passwordChangeRequiredMessage = "Debe cambiar su contraseña temporal antes de continuar";
export const termsRequiredMessage = "Debe aceptar los términos y condiciones antes de continuar";
/** A password-only session of a person with a second factor, anywhere but the second step (issue 27). */
export const secondFactorPendingMessage = "Ingrese el código de verificación para continuar";
/** Staff without a second factor yet, on any staff endpoint (issue 27). */
export const secondFactorSetupRequiredMessage = "Debe configurar la verificación en dos pasos antes de continuar";
