import { createHash, randomBytes } from "node:crypto";
import fastifyJwt from "@fastify/jwt";
import type { FastifyInstance } from "fastify";

// Access tokens through @fastify/jwt (fast-jwt): HS256 only (pinned), `exp`, `iat` and `sub` required, carrying the
// user's tokenVersion so a password change voids them. fast-jwt caches verified tokens (bounded, and never past a
// token's own expiry), so a request with a token already seen costs a hash lookup instead of an HMAC.

const algorithm = "HS256";
const issuer = "portal-pacientes";
const verifiedTokensCached = 10_000;

export interface AccessClaims {
  userId: number;
  tokenVersion: number;
}

export interface AccessTokens {
  sign(claims: AccessClaims): string;
  /** The claims of a valid access token, or null for anything else (bad signature, other algorithm, expired…). */
  verify(token: string): AccessClaims | null;
}

/** Registers @fastify/jwt on the app with the portal's rules and returns the two operations services use. */
export async function registerAccessTokens(app: FastifyInstance, secret: string, ttlMinutes: number): Promise<AccessTokens> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm, iss: issuer, expiresIn: `${ttlMinutes}m` },
    verify: { algorithms: [algorithm], allowedIss: issuer, requiredClaims: ["exp", "iat", "sub"], cache: verifiedTokensCached },
  });
  return {
    sign: ({ userId, tokenVersion }) => app.jwt.sign({ sub: String(userId), ver: tokenVersion, typ: "access" }),
    verify(token) {
      let payload: { sub?: unknown; ver?: unknown; typ?: unknown };
      try {
        payload = app.jwt.verify(token);
      } catch {
        return null;
      }
      const userId = Number(payload.sub);
      if (payload.typ !== "access" || !Number.isInteger(userId) || userId <= 0 || typeof payload.ver !== "number") return null;
      return { userId, tokenVersion: payload.ver };
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
