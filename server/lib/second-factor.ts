import { randomInt } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { sha256 } from "./tokens.ts";

// The second factor's primitives (issue 27): TOTP of RFC 6238 through otplib (SHA-1, 6 digits, 30 s: what every
// authenticator app reads from a QR code), one time step of tolerance either way, and single-use recovery codes.
// The services (server/features/auth/second-factor.service.ts) keep the state; this file only computes.

/** The name authenticator apps show beside the code. */
export const TOTP_ISSUER = "Portal Pacientes";
const PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes: 10 characters of an alphabet without look-alikes (≈ 50 bits), shown as XXXXX-XXXXX. */
const RECOVERY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export const newTotpSecret = (): string => generateSecret();

/**
 * The time step of a code that matches the secret now or one step before or after, and is newer than `afterStep` (a
 * code already used, or an older one, is refused: RFC 6238 §5.2); null otherwise.
 */
export async function acceptedTotpStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    period: PERIOD_SECONDS,
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  }).catch(() => null);
  if (!result?.valid || !("timeStep" in result)) return null;
  return result.timeStep;
}

/** The otpauth:// address the QR code carries, labelled with the portal and the person's RUT. */
export function totpUri(secret: string, label: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label, secret, period: PERIOD_SECONDS });
}

/** The QR code of the address, as an SVG document (the web shows it as an image). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** Ten new recovery codes (shown once) and what is stored of them. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

/** A recovery code as typed (any case, with or without the hyphen or spaces), or null if it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.replace(/[\s-]/g, "").toUpperCase();
  if (compact.length !== 10 || [...compact].some((char) => !RECOVERY_ALPHABET.includes(char))) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/** Recovery codes have ≈ 50 random bits and are tried at the login's pace: a plain SHA-256 is enough to store them. */
export function recoveryCodeHash(code: string): string {
  return sha256(`portal-recovery:${code}`);
}
