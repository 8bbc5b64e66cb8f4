import type { AppDeps } from "../../deps.ts";
import { answerCache, readThrough, type AnswerCache, type ReadOptions } from "../../lib/provider-answer-cache.ts";
import type { ImagingStudy } from "../../providers/imaging/imaging.provider.ts";
import type { DayRange, LabOrder } from "../../providers/lab/lab.provider.ts";
import type { PatientScope } from "../../lib/access.ts";

// Issue 26: the laboratory's and the PACS's answer to a patient's results list, kept RESULTS_CACHE_SECONDS (≤ 60 s)
// so a returning patient (back from an order's detail, another tab, 'Buscar' again) costs the portal, not the provider.
// Only the provider's answer is kept: the access check, the audit, the release rules (which depend on today) and
// everything else a read records still run on every read, in the services. Keyed by the patient whose data it is (after
// the access check of who asks) and the dates; an answer that failed is never kept. 'Actualizar' (refresh) asks again
// and keeps the fresh answer. The scheduled search for new results (notices) reads the providers directly, not here.

export interface ProviderAnswers {
  labOrders: AnswerCache<LabOrder[]> | null;
  imagingStudies: AnswerCache<ImagingStudy[]> | null;
}

// One cache per app (its providers and its database), so two apps in one process never share patients' answers.
const byApp = new WeakMap<AppDeps, ProviderAnswers>();

function answersOf(deps: AppDeps): ProviderAnswers {
  let answers = byApp.get(deps);
  if (!answers) {
    const seconds = deps.config.RESULTS_CACHE_SECONDS;
    answers = { labOrders: answerCache(seconds), imagingStudies: answerCache(seconds) };
    byApp.set(deps, answers);
  }
  return answers;
}

const keyOf = (scope: PatientScope, range: DayRange) => JSON.stringify([scope.patient.id, scope.patient.rut, range.from, range.to]);

/**
 * The laboratory's orders of the patient in `scope` (already checked: the signed-in patient or one they act for)
 * within the range, as the laboratory answered within RESULTS_CACHE_SECONDS. The release rules are not applied here.
 */
export function cachedLabOrders(deps: AppDeps, scope: PatientScope, range: DayRange, options: ReadOptions = {}): Promise<LabOrder[]> {
  const load = () => deps.providers.lab.listOrders(scope.patient.rut, range);
  return readThrough(answersOf(deps).labOrders, keyOf(scope, range), load, options);
}

/** The PACS's studies of the patient in `scope` within the range, as the PACS answered within RESULTS_CACHE_SECONDS. */
export function cachedImagingStudies(
  deps: AppDeps,
  scope: PatientScope,
  range: DayRange,
  options: ReadOptions = {},
): Promise<ImagingStudy[]> {
  const load = () => deps.providers.imaging.searchStudies(scope.patient.rut, range);
  return readThrough(answersOf(deps).imagingStudies, keyOf(scope, range), load, options);
}
