import type { AppConfig } from "../../config.ts";
import { issuingSession, signLink, verifyLink, type LinkPurpose, type SignedLink } from "../../lib/signed-links.ts";
import type { PatientScope } from "../../lib/access.ts";

// The report PDFs live at the providers, behind their credentials. The portal hands the browser a signed link of its
// own (lib/signed-links.ts: short-lived, naming the user, the password version, and the order or study); opening it
// makes the portal fetch the PDF from the provider with its credentials and stream it. No provider address or secret
// reaches the browser, a link copied to someone else expires, and a password change voids every link issued before.

export type ReportKind = "lab" | "imaging";

export interface ReportLinkClaims {
  userId: number;
  tokenVersion: number;
  kind: ReportKind;
  /** Order number (lab) or accession number (imaging). */
  ref: string;
  /** The dependent whose report it is, when `userId` is their caregiver (issue 30). */
  patientId?: number;
  /** The session that issued it (lib/signed-links.ts); absent on a link mailed to the person's own address. */
  sessionId?: string;
}

/** The token travels in the query string (as `token`, which request logs redact), being longer than a path segment may be. */
export const REPORT_LINK_PATH = "/api/rcr/v1/results/report";

const purposeOf = (kind: ReportKind): LinkPurpose => (kind === "lab" ? "lab-report" : "imaging-report");
const reportPurposes: readonly LinkPurpose[] = ["lab-report", "imaging-report"];

export function signReportToken(config: Pick<AppConfig, "JWT_SECRET">, claims: ReportLinkClaims, ttlSeconds: number): Promise<string> {
  const { kind, ...link } = claims;
  return signLink(config, { ...link, purpose: purposeOf(kind) }, ttlSeconds);
}

/** The claims of a valid, unexpired report token; null for anything else (a bill file link included). */
export async function verifyReportToken(config: Pick<AppConfig, "JWT_SECRET">, token: string): Promise<ReportLinkClaims | null> {
  const link: SignedLink | null = await verifyLink(config, token, reportPurposes);
  if (!link) return null;
  return {
    userId: link.userId,
    tokenVersion: link.tokenVersion,
    kind: link.purpose === "lab-report" ? "lab" : "imaging",
    ref: link.ref,
    ...(link.patientId === undefined ? {} : { patientId: link.patientId }),
    ...(link.sessionId === undefined ? {} : { sessionId: link.sessionId }),
  };
}

/** The report link the portal's own pages use (relative to the portal), issued to the caller for the scope's patient. */
export async function reportLink(
  config: Pick<AppConfig, "JWT_SECRET" | "RESULT_LINK_TTL_MINUTES">,
  scope: PatientScope,
  report: Pick<ReportLinkClaims, "kind" | "ref">,
) {
  const claims: ReportLinkClaims = {
    userId: scope.caller.id,
    tokenVersion: scope.caller.tokenVersion,
    patientId: scope.patient.id,
    sessionId: issuingSession(scope.caller),
    ...report,
  };
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
