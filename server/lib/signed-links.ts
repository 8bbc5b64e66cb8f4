import { createHmac } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { AppConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import type { SessionUser } from "../http/authenticate.ts";
import { sessionSignInMethod, sessionState, type SignInMethod } from "./sessions.ts";

// The one way to sign a short-lived link (bill file downloads, report downloads, report links in mails): an HS256 token
// naming the user, the user's token version, the session that issued it, and what it opens (a purpose and a reference).
// The link is the credential, so it carries everything it needs and works on any instance sharing JWT_SECRET; its key is
// derived from that secret for links only, so a link never passes for a session token nor a session token for a link.
// Opening one (linkStillOpens) checks the token version against the user's current one — a password change (and
// whatever else bumps the version: a deactivation, an account closed) voids every link issued before, at once — and
// that the session that issued it is still open: 'Cerrar sesión', 'Cerrar las demás sesiones', a second-factor reset,
// an expired session void the links that session issued (issue 42, point 6). The one kind bound to no session is the
// report link mailed to the person's own stored address ('Enviar por email'): whoever reads that mailbox is the
// person, not the browser that asked (docs/seguridad.md).

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
  /**
   * The session that issued it: the link opens only while that session is open. Absent only on a report link mailed
   * to the person's own address, which outlives the session that asked for it.
   */
  sessionId?: string;
}

/**
 * The session a link is issued within: the caller's, from the access token. Every link made for a browser is made
 * while answering a signed-in request; a caller without a session is a bug here, never a link that lives forever.
 */
export function issuingSession(user: SessionUser): string {
  const sessionId = (user as SessionUser & { sessionId?: unknown }).sessionId;
  if (typeof sessionId !== "string" || !sessionId) throw new Error("a signed link is issued within a session");
  return sessionId;
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
  const session = link.sessionId === undefined ? {} : { sid: link.sessionId };
  return new SignJWT({ ver: link.tokenVersion, pur: link.purpose, ref: link.ref, ...onBehalf, ...session })
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
    const { ver, pur, ref, pat, sid } = payload as { ver?: unknown; pur?: unknown; ref?: unknown; pat?: unknown; sid?: unknown };
    const purpose = purposes.find((candidate) => candidate === pur);
    if (!Number.isInteger(userId) || typeof ver !== "number" || !purpose || !accepted.includes(purpose) || typeof ref !== "string")
      return null;
    if (pat !== undefined && !Number.isInteger(pat)) return null;
    if (sid !== undefined && typeof sid !== "string") return null;
    return {
      userId,
      tokenVersion: ver,
      purpose,
      ref,
      ...(typeof pat === "number" ? { patientId: pat } : {}),
      ...(typeof sid === "string" ? { sessionId: sid } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Whether the link is still good for this user as they are now: the same user, no password change since, and the
 * session that issued it still open (a mailed link has none to check).
 */
export async function linkStillOpens<U extends { id: number; tokenVersion: number }>(
  deps: AppDeps,
  link: Pick<SignedLink, "userId" | "tokenVersion" | "sessionId">,
  user: U | null | undefined,
): Promise<boolean> {
  if (!stillValidFor(link, user)) return false;
  if (link.sessionId === undefined) return true;
  // A session just opened on another instance may not have reached this one's cache yet (see authenticate).
  if ((await sessionState(deps, link.userId, link.sessionId)) === "open") return true;
  return (await sessionState(deps, link.userId, link.sessionId, "fresh")) === "open";
}

/** How the session that issued the link was opened ("password" for a mailed link, which has none): see firstLoginRefusal. */
export async function linkSignInMethod(deps: AppDeps, link: Pick<SignedLink, "userId" | "sessionId">): Promise<SignInMethod> {
  return link.sessionId === undefined ? "password" : sessionSignInMethod(deps, link.userId, link.sessionId);
}

/** Whether the link is still good for this user as they are now: the same user, and no password change since. */
export function stillValidFor<U extends { id: number; tokenVersion: number }>(
  link: Pick<SignedLink, "userId" | "tokenVersion">,
  user: U | null | undefined,
): user is U {
  return !!user && user.id === link.userId && user.tokenVersion === link.tokenVersion;
}
