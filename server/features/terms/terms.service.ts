import type { AppDeps, RequestMeta } from "../../deps.ts";
import { clinicByKey, DEFAULT_CLINIC_KEY, type Clinic } from "../../contract/clinics.ts";
import { recordAudit } from "../../lib/audit.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { renderTermsPdf } from "./terms-pdf.ts";
import { setTermsAccepted } from "../../db/users.repository.ts";

export const TERMS_FILE_NAME = "terminos-condiciones.pdf";

export function termsClinic(clinicKey: string | undefined): Clinic {
  return clinicByKey(clinicKey) ?? clinicByKey(DEFAULT_CLINIC_KEY)!;
}

/** Address of the clinic's terms PDF (opened by the web app in a new tab). */
export function termsDocumentUrl(clinicKey: string | undefined): string {
  return `/api/rcr/v1/term-conditions/document/${termsClinic(clinicKey).key}/${TERMS_FILE_NAME}`;
}

const pdfCache = new Map<string, Promise<Uint8Array>>();
export function termsPdf(clinicKey: string | undefined, version: string): Promise<Uint8Array> {
  const clinic = termsClinic(clinicKey);
  const cacheKey = `${clinic.key}@${version}`;
  let pdf = pdfCache.get(cacheKey);
  if (!pdf) {
    pdf = renderTermsPdf(clinic, version);
    pdfCache.set(cacheKey, pdf);
  }
  return pdf;
}

/** Records the acceptance (date and version of the text) and returns the acceptance date. */
export async function acceptTerms(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<Date> {
  const acceptedAt = new Date();
  await deps.prisma.$transaction(async (tx) => {
    await setTermsAccepted(tx, user.id, acceptedAt);
    await tx.termsAcceptance.create({ data: { userId: user.id, version: deps.config.TERMS_VERSION, acceptedAt, ip: meta.ip } });
  });
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: "terms.accept",
    resource: "terms",
    resourceId: deps.config.TERMS_VERSION,
    ip: meta.ip,
  });
  return acceptedAt;
}

export function hasAcceptedTerms(user: SessionUser): boolean {
  return user.dateTyc !== null;
}
