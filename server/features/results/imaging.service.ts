import { z } from "zod";
import type { ImagingOrderDto } from "../../contract/results.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import type { ImagingStudy } from "../../providers/imaging/imaging.provider.ts";
import { reportLink } from "./report-links.ts";
import { resolveRange } from "./result-dates.ts";
import { audit, type ResultsAuditAction } from "../../lib/audit.ts";
import { actingForPatient, type PatientScope } from "../../lib/access.ts";
import { ZActualizar, type ReadOptions } from "../../lib/provider-answer-cache.ts";
import { cachedImagingStudies } from "./provider-answers.ts";

// SPEC §7 imaging calls. The patient is the signed-in user, or a dependent they care for (issue 30), looked up at the
// PACS by that patient's RUT (PatientID).

export const studyNotFoundMessage = "Examen no encontrado";
export const studyWithoutReportMessage = "El examen aún no tiene informe";

export const ZImagingQuery = z.object({
  dateFrom: z.string().max(20).optional(),
  dateTo: z.string().max(20).optional(),
  clinic: z.string().trim().max(60).optional(),
  actualizar: ZActualizar.optional(),
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

/**
 * GET orders-imaging: the patient's studies between dateFrom and dateTo (dd/mm/yyyy or yyyy-mm-dd; default 12 months).
 * The PACS's answer may come from the last RESULTS_CACHE_SECONDS (provider-answers.ts) unless `actualizar` (REST) or
 * `refresh` (tRPC) asks again; the audit records every read.
 */
export async function listImagingOrders(
  deps: AppDeps,
  user: SessionUser,
  input: unknown,
  meta: RequestMeta,
  options: ReadOptions = {},
): Promise<ImagingOrderDto[]> {
  const scope = await actingForPatient(deps, user, meta, "resultados", "imaging.studies.list");
  const query = parseInput(ZImagingQuery, input);
  const range = resolveRange({ from: query.dateFrom, to: query.dateTo }, { allowIso: true });
  const refresh = options.refresh ?? query.actualizar ?? false;
  const studies = await cachedImagingStudies(deps, scope, range, { refresh });
  await audit(deps, user, meta, {
    scope,
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
  meta: RequestMeta,
  action: ResultsAuditAction,
): Promise<{ scope: PatientScope; accession: string; study: ImagingStudy | null }> {
  const scope = await actingForPatient(deps, user, meta, "resultados", action);
  const accession = parseInput(ZAccessionNumber, rawAccession);
  return { scope, accession, study: await deps.providers.imaging.findStudy(scope.patient.rut, accession) };
}

/** GET orders-imaging/{accessionNumber}: the viewer address of one of the patient's studies. */
export async function imagingViewerUrl(deps: AppDeps, user: SessionUser, rawAccession: unknown, meta: RequestMeta): Promise<string> {
  const { scope, accession, study } = await ownStudy(deps, user, rawAccession, meta, "imaging.viewer.open");
  await audit(deps, user, meta, {
    scope,
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
  const { scope, accession, study } = await ownStudy(deps, user, rawAccession, meta, "imaging.report.link");
  await audit(deps, user, meta, {
    scope,
    action: "imaging.report.link",
    resource: "ImagingStudy",
    resourceId: accession,
    outcome: study?.hasReport ? "ok" : "failed",
  });
  if (!study) throw new AppError("NOT_FOUND", studyNotFoundMessage);
  if (!study.hasReport) throw new AppError("NOT_FOUND", studyWithoutReportMessage);
  return reportLink(deps.config, scope, { kind: "imaging", ref: study.accessionNumber });
}
