import { jwtVerify, SignJWT } from "jose";
import type { AppConfig } from "../../config.ts";

// The report PDFs live at the providers, behind their credentials. The portal hands the browser a signed link of its
// own (HS256, short-lived, naming the user, the password version, and the order or study); opening it makes the portal
// fetch the PDF from the provider with its credentials and stream it. No provider address or secret reaches the browser,
// a link copied to someone else expires, and a password change voids every link issued before.

export type ReportKind = "lab" | "imaging";

export interface ReportLinkClaims {
  userId: number;
  tokenVersion: number;
  kind: ReportKind;
  /** Order number (lab) or accession number (imaging). */
  ref: string;
}

const algorithm = "HS256";
const issuer = "portal-pacientes";
const audience = "report";
/** The token travels in the query string (as `token`, which request logs redact), being longer than a path segment may be. */
export const REPORT_LINK_PATH = "/api/rcr/v1/results/report";

const key = (config: Pick<AppConfig, "JWT_SECRET">) => new TextEncoder().encode(config.JWT_SECRET);

export async function signReportToken(
  config: Pick<AppConfig, "JWT_SECRET">,
  claims: ReportLinkClaims,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ ver: claims.tokenVersion, kind: claims.kind, ref: claims.ref })
    .setProtectedHeader({ alg: algorithm, typ: "JWT" })
    .setSubject(String(claims.userId))
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key(config));
}

/** The claims of a valid, unexpired report token; null for anything else. */
export async function verifyReportToken(config: Pick<AppConfig, "JWT_SECRET">, token: string): Promise<ReportLinkClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(config), { algorithms: [algorithm], issuer, audience });
    const userId = Number(payload.sub);
    const { ver, kind, ref } = payload as { ver?: unknown; kind?: unknown; ref?: unknown };
    if (!Number.isInteger(userId) || typeof ver !== "number" || (kind !== "lab" && kind !== "imaging") || typeof ref !== "string")
      return null;
    return { userId, tokenVersion: ver, kind, ref };
  } catch {
    return null;
  }
}

/** The report link the portal's own pages use (relative to the portal). */
export async function reportLink(config: Pick<AppConfig, "JWT_SECRET" | "RESULT_LINK_TTL_MINUTES">, claims: ReportLinkClaims) {
  return reportLinkFor(await signReportToken(config, claims, config.RESULT_LINK_TTL_MINUTES * 60));
}

export const reportLinkFor = (token: string) => `${REPORT_LINK_PATH}?token=${token}`;

/** The token inside a report link (absolute or relative), or null when the text is not one of the portal's report links. */
export function tokenOfReportLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link, "http://portal.invalid");
  } catch {
    return null;
  }
  const token = url.searchParams.get("token");
  if (url.pathname !== REPORT_LINK_PATH || !token) return null;
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) ? token : null;
}
