import { createHmac } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { AppConfig } from "../config.ts";

// The one way to sign a short-lived link (bill file downloads, report downloads, report links in mails): an HS256 token
// naming the user, the user's token version, and what it opens (a purpose and a reference). The link is the
// credential, so it carries everything it needs and works on any instance sharing JWT_SECRET; its key is derived from
// that secret for links only, so a link never passes for a session token nor a session token for a link. Opening one
// checks the token version against the user's current one (stillValidFor): a password change (and whatever else bumps
// the version: a deactivation, a revoked session) voids every link issued before, at once.

/** What a link opens; a link for one purpose is refused for any other. */
export type LinkPurpose = "bill-file" | "lab-report" | "imaging-report" | "payment-receipt" | "data-export";

export interface SignedLink {
  userId: number;
  /** The user's token version when the link was made. */
  tokenVersion: number;
  purpose: LinkPurpose;
  /** What the link opens within its purpose: a file's path, an order or accession number. */
  ref: string;
  /**
   * The dependent whose document it is, when `userId` is their caregiver (issue 30); opening it checks the caregiver
   * link again. Absent: the document is the user's own.
   */
  patientId?: number;
}

const algorithm = "HS256";
const issuer = "portal-pacientes";
const audience = "signed-link";
const purposes: readonly LinkPurpose[] = ["bill-file", "lab-report", "imaging-report", "payment-receipt", "data-export"];

// The key is derived and imported once per secret: jose imports a raw key into WebCrypto on every call otherwise, and
// the laboratory list signs one link per order with a report (issue 26, the list's own cost: about a fifth of its CPU
// went to deriving and importing this same key again).
const linkKeys = new Map<string, Promise<CryptoKey>>();
function linkKey(secret: string): Promise<CryptoKey> {
  let key = linkKeys.get(secret);
  if (!key) {
    const raw = new Uint8Array(createHmac("sha256", secret).update("portal-pacientes/signed-link/v1").digest());
    key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    linkKeys.set(secret, key);
  }
  return key;
}

/** The query every signed link carries (`?token=`, which request logs redact): the credential of the route it opens. */
export const ZSignedLinkQuery = z.object({
  token: z
    .string()
    .max(2000)
    .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    .describe("Enlace firmado de corta duración: usuario, versión de su contraseña, qué abre y vencimiento"),
});

/** A token for that link, valid `ttlSeconds` from `now`. */
export async function signLink(
  config: Pick<AppConfig, "JWT_SECRET">,
  link: SignedLink,
  ttlSeconds: number,
  now = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const onBehalf = link.patientId !== undefined && link.patientId !== link.userId ? { pat: link.patientId } : {};
  return new SignJWT({ ver: link.tokenVersion, pur: link.purpose, ref: link.ref, ...onBehalf })
    .setProtectedHeader({ alg: algorithm, typ: "JWT" })
    .setSubject(String(link.userId))
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(await linkKey(config.JWT_SECRET));
}

/**
 * The link a genuine, unexpired token of one of `accepted` purposes was made for; null for anything else. The caller
 * still checks the user's token version (stillValidFor) and that the user may see what it opens now.
 */
export async function verifyLink(
  config: Pick<AppConfig, "JWT_SECRET">,
  token: string,
  accepted: readonly LinkPurpose[],
  now = new Date(),
): Promise<SignedLink | null> {
  try {
    const { payload } = await jwtVerify(token, await linkKey(config.JWT_SECRET), {
      algorithms: [algorithm],
      issuer,
      audience,
      currentDate: now,
    });
    const userId = Number(payload.sub);
    const { ver, pur, ref, pat } = payload as { ver?: unknown; pur?: unknown; ref?: unknown; pat?: unknown };
    const purpose = purposes.find((candidate) => candidate === pur);
    if (!Number.isInteger(userId) || typeof ver !== "number" || !purpose || !accepted.includes(purpose) || typeof ref !== "string")
      return null;
    if (pat !== undefined && !Number.isInteger(pat)) return null;
    return { userId, tokenVersion: ver, purpose, ref, ...(typeof pat === "number" ? { patientId: pat } : {}) };
  } catch {
    return null;
  }
}

/** Whether the link is still good for this user as they are now: the same user, and no password change since. */
export function stillValidFor<U extends { id: number; tokenVersion: number }>(
  link: Pick<SignedLink, "userId" | "tokenVersion">,
  user: U | null | undefined,
): user is U {
  return !!user && user.id === link.userId && user.tokenVersion === link.tokenVersion;
}
