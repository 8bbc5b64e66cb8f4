import { createHash, randomBytes } from "node:crypto";
import fastifyJwt from "@fastify/jwt";
import type { FastifyInstance } from "fastify";

// Access tokens through @fastify/jwt (fast-jwt): HS256 only (pinned); `iss` (this portal), `exp`, `iat`, `sub` and the
// session id `sid` required, `iat` no later than a small clock skew; carrying the user's tokenVersion so a password
// change voids them, and the session so that ending it ('Cerrar sesión') voids them too. Verified access tokens are
// kept by their text (bounded, and never past a token's own expiry), so a request with a token already seen costs a
// Map lookup instead of an HMAC. Not fast-jwt's own cache: it keys each token by its SHA-256, which was 2 % of the
// portal's CPU on every signed-in request under the bench (docs/rendimiento.md, issue 46 §1).

const algorithm = "HS256";
const issuer = "portal-pacientes";
const verifiedTokensCached = 10_000;
/** How far ahead of this clock another instance's clock may have stamped `iat`. */
export const CLOCK_SKEW_SECONDS = 60;

export interface AccessClaims {
  userId: number;
  tokenVersion: number;
  /** The session the token belongs to (server/features/sessions). */
  sessionId: string;
}

export interface AccessTokens {
  sign(claims: AccessClaims): string;
  /** The claims of a valid access token, or null for anything else (bad signature, other algorithm, expired…). */
  verify(token: string): AccessClaims | null;
  /** A device cookie's value: this browser signed in as `subject` (a hash of the RUT) before (login-throttle.ts). */
  signDevice(subject: string, nonce: string, ttlDays: number): string;
  /** The subject and nonce of a genuine, unexpired device cookie, or null. */
  verifyDevice(token: string): { subject: string; nonce: string } | null;
}

/** Registers @fastify/jwt on the app with the portal's rules and returns the two operations services use. */
export async function registerAccessTokens(app: FastifyInstance, secret: string, ttlMinutes: number): Promise<AccessTokens> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm, iss: issuer, expiresIn: `${ttlMinutes}m` },
    verify: {
      algorithms: [algorithm],
      allowedIss: issuer,
      requiredClaims: ["iss", "exp", "iat", "sub", "sid"],
    },
  });
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  return {
    sign: ({ userId, tokenVersion, sessionId }) => app.jwt.sign({ sub: String(userId), ver: tokenVersion, sid: sessionId, typ: "access" }),
    verify(token) {
      const seen = verified.get(token);
      if (seen && Date.now() < seen.expiresAtMs) return seen.claims;
      if (seen) verified.delete(token);
      let payload: { sub?: unknown; ver?: unknown; typ?: unknown; sid?: unknown; iat?: unknown; exp?: unknown };
      try {
        payload = app.jwt.verify(token);
      } catch {
        return null;
      }
      const userId = Number(payload.sub);
      if (payload.typ !== "access" || !Number.isInteger(userId) || userId <= 0 || typeof payload.ver !== "number") return null;
      if (typeof payload.sid !== "string" || !/^[\w-]{16,64}$/.test(payload.sid)) return null;
      // fast-jwt checks exp and nbf but not an iat in the future, which only a forger (or a badly wrong clock) makes.
      if (typeof payload.iat !== "number" || payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) return null;
      const claims = { userId, tokenVersion: payload.ver, sessionId: payload.sid };
      // Map keeps insertion order: when full, the token verified longest ago makes room.
      if (verified.size >= verifiedTokensCached) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, expiresAtMs: Number(payload.exp) * 1000 });
      return claims;
    },
    signDevice: (subject, nonce, ttlDays) => app.jwt.sign({ sub: subject, jti: nonce, typ: "device" }, { expiresIn: `${ttlDays}d` }),
    verifyDevice(token) {
      let payload: { sub?: unknown; jti?: unknown; typ?: unknown };
      try {
        payload = app.jwt.verify(token, { requiredClaims: ["iss", "exp", "iat", "sub", "jti"] });
      } catch {
        return null;
      }
      if (payload.typ !== "device" || typeof payload.sub !== "string" || typeof payload.jti !== "string") return null;
      return { subject: payload.sub, nonce: payload.jti };
    },
  };
}

/** 256 random bits, URL-safe: for reset links. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
