import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// The token signing secret: never one that was ever published (the repository is public to anyone who has a copy),
// never one with less than 32 bytes of entropy, and in development one generated per installation, not shared.

/** Every value that has appeared as a signing secret in this repository (the secrets test keeps this list complete). */
export const publishedSecrets: readonly string[] = [
  "desarrollo-no-usar-en-produccion-0123456789",
  "cambie-este-secreto-por-uno-aleatorio-de-32+caracteres",
];

export const MIN_SECRET_BITS = 256;

/**
 * A conservative estimate of the entropy of a secret, in bits: its length times the bits of the alphabet it draws
 * from (hex, letters, digits, symbols), or its measured per-character entropy when that is low (repeats, patterns).
 */
export function estimatedSecretBits(secret: string): number {
  if (secret.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  let shannon = 0;
  for (const count of counts.values()) {
    const p = count / secret.length;
    shannon -= p * Math.log2(p);
  }
  let alphabet = 0;
  if (/^[0-9a-f]+$/.test(secret) || /^[0-9A-F]+$/.test(secret)) alphabet = 16;
  else {
    if (/[a-z]/.test(secret)) alphabet += 26;
    if (/[A-Z]/.test(secret)) alphabet += 26;
    if (/[0-9]/.test(secret)) alphabet += 10;
    if (/[^a-zA-Z0-9]/.test(secret)) alphabet += 33;
  }
  const perCharacter = shannon >= 3 ? Math.log2(alphabet) : shannon;
  return secret.length * perCharacter;
}

/** Why a secret may not sign tokens (Spanish, for the start-up error), or null when it is fine. */
export function secretProblem(secret: string): string | null {
  if (publishedSecrets.includes(secret)) return "es un valor publicado en el repositorio; genere uno propio (openssl rand -base64 32)";
  if (estimatedSecretBits(secret) < MIN_SECRET_BITS) {
    return "debe tener al menos 32 bytes de entropía; genere uno con openssl rand -base64 32";
  }
  return null;
}

/** A fresh secret of 32 random bytes. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** This installation's development secret: read from the file, or generated into it (mode 0600) on first use. */
export function installationSecret(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = generateSecret();
  try {
    // "wx": when two processes start at once, the first one's secret wins and the other reads it.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readFileSync(file, "utf8").trim();
  }
}
