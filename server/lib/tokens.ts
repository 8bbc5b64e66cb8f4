import { createHash, randomBytes } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";

// Access tokens: HS256 only (pinned), with an expiry, carrying the user's tokenVersion so a password change voids them.

const algorithm = "HS256";
const issuer = "portal-pacientes";

export interface AccessClaims {
  userId: number;
  tokenVersion: number;
}

export async function signAccessToken(secret: string, claims: AccessClaims, ttlMinutes: number): Promise<string> {
  return new SignJWT({ ver: claims.tokenVersion, typ: "access" })
    .setProtectedHeader({ alg: algorithm, typ: "JWT" })
    .setSubject(String(claims.userId))
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime(`${ttlMinutes}m`)
    .sign(new TextEncoder().encode(secret));
}

/** Returns the claims of a valid access token, or null for anything else (bad signature, other algorithm, expired…). */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: [algorithm],
      issuer,
      requiredClaims: ["exp", "iat", "sub"],
    });
    const userId = Number(payload.sub);
    if (payload.typ !== "access" || !Number.isInteger(userId) || typeof payload.ver !== "number") return null;
    return { userId, tokenVersion: payload.ver };
  } catch {
    return null;
  }
}

/** 256 random bits, URL-safe: for reset links. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
