import { createHash, randomBytes } from "node:crypto";
import fastifyJwt from "@fastify/jwt";
import type { FastifyInstance } from "fastify";

// Access tokens through @fastify/jwt (fast-jwt): HS256 only (pinned); `iss` (this portal), `exp`, `iat`, `sub` and the
// session id `sid` required, `iat` no later than a small clock skew; carrying the user's tokenVersion so a password
// change voids them, and the session so that ending it ('Cerrar sesión') voids them too. fast-jwt caches verified tokens (bounded, and never past a
// token's own expiry), so a request with a token already seen costs a hash lookup instead of an HMAC.

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
      cache: verifiedTokensCached,
    },
  });
  return {
    sign: ({ userId, tokenVersion, sessionId }) => app.jwt.sign({ sub: String(userId), ver: tokenVersion, sid: sessionId, typ: "access" }),
    verify(token) {
      let payload: { sub?: unknown; ver?: unknown; typ?: unknown; sid?: unknown; iat?: unknown };
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
      return { userId, tokenVersion: payload.ver, sessionId: payload.sid };
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
