import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Sealing at rest (AES-256-GCM): what the database keeps of a secret is useless without a key from configuration, so a
// dump alone gives nothing. Shared by the mail queue's bodies and the second factor's TOTP secrets.

/** A 32-byte key derived from configured key material, one per use (`purpose`), so one use never opens another's. */
export function sealingKey(material: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "portal-pacientes", purpose, 32));
}

/** base64 of iv(12) + tag(16) + ciphertext. */
export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
}

/** The text sealed with `key`; throws when it was sealed with another key or altered. */
export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
