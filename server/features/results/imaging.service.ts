import { z } from "zod";
import type { ImagingOrderDto } from "../../contract/results.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import type { ImagingStudy } from "../../providers/imaging/imaging.provider.ts";
import { requirePatient } from "./patient-access.ts";
import { reportLink } from "./report-links.ts";
import { resolveRange } from "./result-dates.ts";
import { audit } from "../../lib/audit.ts";

// SPEC §7 imaging calls. The patient is the signed-in user, looked up at the PACS by their own RUT (PatientID).

export const studyNotFoundMessage = "Examen no encontrado";
export const studyWithoutReportMessage = "El examen aún no tiene informe";

export const ZImagingQuery = z.object({
  dateFrom: z.string().max(20).optional(),
  dateTo: z.string().max(20).optional(),
  clinic: z.string().trim().max(60).optional(),
});

export const ZAccessionNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]{1,16}$/, studyNotFoundMessage);

const toDto = (study: ImagingStudy): ImagingOrderDto => ({
  date: study.date,
  modality: study.modality,
  accessionNumber: study.accessionNumber,
  description: study.description,
  hasReport: study.hasReport,
});

/** GET orders-imaging: the patient's studies between dateFrom and dateTo (dd/mm/yyyy or yyyy-mm-dd; default 12 months). */
export async function listImagingOrders(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<ImagingOrderDto[]> {
  requirePatient(user);
  const query = parseInput(ZImagingQuery, input);
  const range = resolveRange({ from: query.dateFrom, to: query.dateTo }, { allowIso: true });
  const studies = await deps.providers.imaging.searchStudies(user.rut, range);
  await audit(deps, user, meta, {
    patientId: user.id,
    action: "imaging.studies.list",
    resource: "ImagingStudy",
    after: { from: range.from, to: range.to, studies: studies.map((study) => study.accessionNumber) },
  });
  return studies.map(toDto);
}

async function ownStudy(
  deps: AppDeps,
  user: SessionUser,
  rawAccession: unknown,
): Promise<{ accession: string; study: ImagingStudy | null }> {
  requirePatient(user);
  const accession = parseInput(ZAccessionNumber, rawAccession);
  return { accession, study: await deps.providers.imaging.findStudy(user.rut, accession) };
}

/** GET orders-imaging/{accessionNumber}: the viewer address of one of the patient's studies. */
export async function imagingViewerUrl(deps: AppDeps, user: SessionUser, rawAccession: unknown, meta: RequestMeta): Promise<string> {
  const { accession, study } = await ownStudy(deps, user, rawAccession);
  await audit(deps, user, meta, {
    patientId: user.id,
    action: "imaging.viewer.open",
    resource: "ImagingStudy",
    resourceId: accession,
    outcome: study ? "ok" : "failed",
  });
  if (!study) throw new AppError("NOT_FOUND", studyNotFoundMessage);
  return deps.providers.imaging.viewerUrl(study);
}

/** GET orders-imaging/pdf/{accessionNumber}: a signed portal link to the study's report PDF. */
export async function imagingReportUrl(deps: AppDeps, user: SessionUser, rawAccession: unknown, meta: RequestMeta): Promise<string> {
  const { accession, study } = await ownStudy(deps, user, rawAccession);
  await audit(deps, user, meta, {
    patientId: user.id,
    action: "imaging.report.link",
    resource: "ImagingStudy",
    resourceId: accession,
    outcome: study?.hasReport ? "ok" : "failed",
  });
  if (!study) throw new AppError("NOT_FOUND", studyNotFoundMessage);
  if (!study.hasReport) throw new AppError("NOT_FOUND", studyWithoutReportMessage);
  return reportLink(deps.config, { userId: user.id, tokenVersion: user.tokenVersion, kind: "imaging", ref: study.accessionNumber });
}
