import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

// Short-lived download links for bill files: /files/download/{path}?u={userId}&exp={unix seconds}&sig={HMAC}.
// The HMAC key is derived from the server's JWT secret (shared by every instance), so a link made on one instance
// works on any other, and changing either the path, the user or the expiry breaks the signature.

export const FILE_LINK_TTL_SECONDS = 300;

const linkKey = (secret: string) => createHmac("sha256", secret).update("portal-pacientes/bill-file-link/v1").digest();

const signature = (secret: string, path: string, userId: number, expires: number) =>
  createHmac("sha256", linkKey(secret)).update(`${path}\n${userId}\n${expires}`).digest("base64url");

/** The signed query of a download link: the credential of GET /files/download/{path} (also its API docs). */
export const ZFileLinkQuery = z.object({
  u: z
    .string()
    .regex(/^\d{1,10}$/)
    .describe("Usuario para el que se hizo el enlace"),
  exp: z
    .string()
    .regex(/^\d{1,12}$/)
    .describe("Vencimiento, en segundos Unix"),
  sig: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe("Firma HMAC de la ruta, el usuario y el vencimiento"),
});
export type FileLinkQuery = z.infer<typeof ZFileLinkQuery>;

/** The query of a link for that user to that file, valid until `expires` (unix seconds). */
export function signFileLink(secret: string, path: string, userId: number, expires: number): FileLinkQuery {
  return { u: String(userId), exp: String(expires), sig: signature(secret, path, userId, expires) };
}

/** The user the link was made for, or null when it is malformed, altered or expired. */
export function verifyFileLink(secret: string, path: string, query: Partial<Record<keyof FileLinkQuery, unknown>>, nowSeconds: number) {
  const parsed = ZFileLinkQuery.safeParse(query);
  if (!parsed.success) return null;
  const { u, exp, sig } = parsed.data;
  const userId = Number(u);
  const expires = Number(exp);
  const expected = Buffer.from(signature(secret, path, userId, expires));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (expires <= nowSeconds) return null;
  return { userId };
}
