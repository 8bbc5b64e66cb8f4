import { z } from "zod";
import { clinicByKey, DEFAULT_CLINIC_KEY } from "../../contract/clinics.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { firstLoginRefusal } from "../../http/authenticate.ts";
import { AppError } from "../../lib/errors.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import { escapeHtml, type MailMessage } from "../../providers/mail/mail.provider.ts";
import { audit } from "../../lib/audit.ts";
import { releasedLabOrder } from "../../lib/released-results.ts";
import { linkSignInMethod, linkStillOpens } from "../../lib/signed-links.ts";
import { liveCaregiverLink } from "../../lib/access.ts";
import {
  reportLinkFor,
  signReportToken,
  tokenOfReportLink,
  verifyReportToken,
  type ReportKind,
  type ReportLinkClaims,
} from "./report-links.ts";

export const reportNotFoundMessage = "Informe no encontrado";
export const reportLinkExpiredMessage = "El enlace del informe venció o no es válido. Ábralo nuevamente desde el portal.";

const resourceOf = (kind: ReportKind) => (kind === "lab" ? "LabOrder" : "ImagingStudy");

/** The PDF bytes of a report, read from its provider for the patient who owns it; null when it has none. */
async function reportBytes(deps: AppDeps, rut: string, kind: ReportKind, ref: string): Promise<Uint8Array | null> {
  if (kind === "lab") {
    // Through the release rules: a report holding back an in-person or not yet due result is not handed out.
    const order = await releasedLabOrder(deps, rut, ref);
    return order?.reportUrl ? deps.providers.lab.fetchReport(order.reportUrl) : null;
  }
  const study = await deps.providers.imaging.findStudy(rut, ref);
  return study ? deps.providers.imaging.fetchReport(study) : null;
}

/**
 * Whose report a link opens for its holder: their own, or a dependent's while the caregiver link still covers results
 * (checked again now: a link revoked or expired since the report link was issued opens nothing).
 */
async function reportPatient(deps: AppDeps, holder: { id: number; rut: string }, claims: ReportLinkClaims) {
  if (claims.patientId === undefined || claims.patientId === holder.id) return holder;
  const link = await liveCaregiverLink(deps, holder.id, claims.patientId, "resultados");
  return link?.dependent ?? null;
}

/** What a signed report link opens: the PDF, fetched now from the provider (the link itself is the credential). */
export async function openReport(deps: AppDeps, token: string, meta: RequestMeta): Promise<{ pdf: Uint8Array; fileName: string }> {
  const claims = await verifyReportToken(deps.config, token);
  const user =
    claims &&
    (await deps.prisma.user.findUnique({
      where: { id: claims.userId },
      select: { id: true, rut: true, roleType: true, tokenVersion: true, hasChangedPassword: true, dateTyc: true },
    }));
  if (!claims || !user || !(await linkStillOpens(deps, claims, user)) || firstLoginRefusal(user, await linkSignInMethod(deps, claims)))
    throw new AppError("NOT_FOUND", reportLinkExpiredMessage);
  const patient = await reportPatient(deps, user, claims);
  if (!patient) throw new AppError("NOT_FOUND", reportLinkExpiredMessage);
  const pdf = await reportBytes(deps, patient.rut, claims.kind, claims.ref);
  await audit(deps, user, meta, {
    patientId: patient.id,
    action: "results.report.read",
    resource: resourceOf(claims.kind),
    resourceId: claims.ref,
    outcome: pdf ? "ok" : "failed",
  });
  if (!pdf) throw new AppError("NOT_FOUND", reportNotFoundMessage);
  return { pdf, fileName: `informe-${claims.ref}.pdf` };
}

export const ZMailReportQuery = z.object({
  // The spec's call carries an e-mail; it is ignored: reports go only to the address stored for the user.
  email: z.string().max(320).optional(),
  documentLink: z.string({ error: "Falta el enlace del informe" }).trim().min(1, "Falta el enlace del informe").max(2000),
  clinic: z.string().trim().max(60).optional(),
});

/**
 * 'Enviar por email' (SPEC §7 mail/mailValtek): the link must be one of this user's own report links (a signed portal
 * link issued to them), and the mail goes only to the address stored for the user, whatever `email` says.
 */
export async function mailReport(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<true> {
  const query = parseInput(ZMailReportQuery, input);
  const token = tokenOfReportLink(query.documentLink);
  const claims = token ? await verifyReportToken(deps.config, token) : null;
  // Someone else's link, a forged one or any other address answers like a report that does not exist.
  if (!claims || !(await linkStillOpens(deps, claims, user))) throw new AppError("NOT_FOUND", reportNotFoundMessage);

  // Still the patient's, with a report, at the provider (an order can be cancelled after the link was issued).
  const patient = await reportPatient(deps, user, claims);
  if (!patient) throw new AppError("NOT_FOUND", reportNotFoundMessage);
  const exists = await reportExists(deps, patient.rut, claims);
  if (!exists) throw new AppError("NOT_FOUND", reportNotFoundMessage);

  const clinic = clinicByKey(query.clinic) ?? clinicByKey(DEFAULT_CLINIC_KEY)!;
  // The mailed link is bound to no session: it goes only to the person's own address, and outlives the browser that
  // asked for it (a password change still voids it). docs/seguridad.md says so.
  const { sessionId: _asking, ...mailedClaims } = claims;
  const mailToken = await signReportToken(deps.config, mailedClaims, deps.config.RESULT_MAIL_LINK_TTL_HOURS * 3600);
  const link = `${clinicPortalUrl(deps.config, clinic)}${reportLinkFor(mailToken)}`;
  try {
    await deps.providers.mail.send(reportMail(user.email, clinic.title, claims, link, deps.config.RESULT_MAIL_LINK_TTL_HOURS));
  } catch (error) {
    await audit(deps, user, meta, {
      patientId: patient.id,
      action: "results.report.mail",
      resource: resourceOf(claims.kind),
      resourceId: claims.ref,
      outcome: "failed",
    });
    throw error;
  }
  await audit(deps, user, meta, {
    patientId: patient.id,
    action: "results.report.mail",
    resource: resourceOf(claims.kind),
    resourceId: claims.ref,
  });
  return true;
}

async function reportExists(deps: AppDeps, rut: string, claims: ReportLinkClaims): Promise<boolean> {
  if (claims.kind === "lab") return Boolean((await releasedLabOrder(deps, rut, claims.ref))?.reportUrl);
  return Boolean((await deps.providers.imaging.findStudy(rut, claims.ref))?.hasReport);
}

function reportMail(to: string, clinicTitle: string, claims: ReportLinkClaims, link: string, ttlHours: number): MailMessage {
  const what = claims.kind === "lab" ? `de laboratorio de la orden ${claims.ref}` : `de imagenología del examen ${claims.ref}`;
  const lines = [
    "Hola:",
    `Le enviamos el informe ${what}, solicitado desde el Portal Pacientes de ${clinicTitle}.`,
    `Ábralo aquí: ${link}`,
    `El enlace es personal y vence en ${ttlHours} horas; después puede volver a pedirlo desde el portal.`,
    "Si usted no pidió este correo, ignórelo o comuníquese con la clínica.",
  ];
  return {
    to,
    subject: `${clinicTitle} - Informe de resultados`,
    text: lines.join("\n\n"),
    html: [
      "<p>Hola:</p>",
      `<p>Le enviamos el informe ${escapeHtml(what)}, solicitado desde el Portal Pacientes de ${escapeHtml(clinicTitle)}.</p>`,
      `<p><a href="${escapeHtml(link)}">Abrir el informe</a></p>`,
      `<p>El enlace es personal y vence en ${ttlHours} horas; después puede volver a pedirlo desde el portal.</p>`,
      "<p>Si usted no pidió este correo, ignórelo o comuníquese con la clínica.</p>",
    ].join("\n"),
  };
}
