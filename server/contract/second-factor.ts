import { z } from "zod";

// The second factor and the sessions list (issue 27): what the server validates and the web shows, with the same
// Spanish messages.

export const secondFactorMessages = {
  codeRequired: "Ingrese el código de verificación",
  codeInvalid: "El código de verificación no es válido o ya fue utilizado",
  alreadyEnabled: "La verificación en dos pasos ya está activa",
  noEnrolment: "Primero genere el código QR de la verificación en dos pasos",
  alreadyVerified: "Esta sesión ya completó la verificación en dos pasos",
  reasonRequired: "Indique el motivo del restablecimiento (al menos 5 caracteres)",
  reasonTooLong: "El motivo no puede superar los 500 caracteres",
  invalidUser: "Usuario inválido",
  ownReset: "No puede restablecer su propia verificación en dos pasos: use un código de recuperación",
  notEnrolled: "El usuario no tiene verificación en dos pasos configurada",
  invalidSession: "Sesión inválida",
  sessionNotFound: "La sesión no existe o ya fue cerrada",
} as const;

/** A TOTP code (6 digits) or a recovery code (XXXXX-XXXXX), as typed in 'Código de verificación'. */
export const ZOtpInput = z.object({
  code: z
    .string({ error: secondFactorMessages.codeRequired })
    .trim()
    .min(1, { error: secondFactorMessages.codeRequired })
    .max(20, { error: secondFactorMessages.codeInvalid }),
});

/** An admin's reset of another staff member's second factor: who and why (the reason is audited). */
export const ZSecondFactorResetInput = z.object({
  userId: z.coerce
    .number({ error: secondFactorMessages.invalidUser })
    .int({ error: secondFactorMessages.invalidUser })
    .min(1, { error: secondFactorMessages.invalidUser })
    .max(2_147_483_647, { error: secondFactorMessages.invalidUser }),
  reason: z
    .string({ error: secondFactorMessages.reasonRequired })
    .trim()
    .min(5, { error: secondFactorMessages.reasonRequired })
    .max(500, { error: secondFactorMessages.reasonTooLong }),
});

/** One session of the person's own, by id ('Cerrar sesión' in 'Mi cuenta'). */
export const ZSessionIdInput = z.object({
  sessionId: z
    .string({ error: secondFactorMessages.invalidSession })
    .min(16, { error: secondFactorMessages.invalidSession })
    .max(64, { error: secondFactorMessages.invalidSession })
    .regex(/^[\w-]+$/, { error: secondFactorMessages.invalidSession }),
});

/** What login and verify-otp add to the spec's answer: the second step still due, or the set-up staff must do. */
export type SecondFactorStep = "verify" | "setup";

/** 'Mi cuenta' — Verificación en dos pasos. */
export interface SecondFactorStatus {
  enabled: boolean;
  /** Staff must have it; patients may. */
  required: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}

/** The enrolment's first step: the secret as text and as a QR code. */
export interface SecondFactorEnrolment {
  secret: string;
  otpauthUri: string;
  /** An SVG document with the QR code of otpauthUri. */
  qrSvg: string;
}

/** 'Mi cuenta' — Sesiones activas. */
export interface ActiveSession {
  id: string;
  device: string;
  ip: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}
