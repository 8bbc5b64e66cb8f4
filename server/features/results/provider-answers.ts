import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import type { ImagingStudy } from "../../providers/imaging/imaging.provider.ts";
import type { DayRange, LabOrder } from "../../providers/lab/lab.provider.ts";
import type { PatientScope } from "../../lib/access.ts";

// Issue 26: the laboratory's and the PACS's answer to a patient's results list, kept RESULTS_CACHE_SECONDS (≤ 60 s)
// so a returning patient (back from an order's detail, another tab, 'Buscar' again) costs the portal, not the provider.
// Only the provider's answer is kept: the access check, the audit, the release rules (which depend on today) and
// everything else a read records still run on every read, in the services. Keyed by the patient whose data it is (after
// the access check of who asks) and the dates; an answer that failed is never kept. 'Actualizar' (refresh) asks again
// and keeps the fresh answer. The scheduled search for new results (notices) reads the providers directly, not here.

/** Answers kept per list, at most: about the patients of a few busy minutes. */
const MAX_ANSWERS = 5_000;
/** Orders or studies kept per list, at most, so a few patients with long histories cannot fill the memory. */
const MAX_ITEMS = 200_000;

interface Load<V> {
  (): Promise<V>;
}

function answerCache<V extends readonly unknown[]>(ttlMs: number) {
  return new LRUCache<string, V, Load<V>>({
    max: MAX_ANSWERS,
    maxSize: MAX_ITEMS,
    sizeCalculation: (answer) => answer.length + 1,
    ttl: ttlMs,
    // Reads of one patient that arrive together share one call to the provider; a call that fails is not kept.
    fetchMethod: (_key, _stale, { context }) => context(),
  });
}

export interface ProviderAnswers {
  labOrders: LRUCache<string, LabOrder[], Load<LabOrder[]>>;
  imagingStudies: LRUCache<string, ImagingStudy[], Load<ImagingStudy[]>>;
}

// One cache per app (its providers and its database), so two apps in one process never share patients' answers.
const byApp = new WeakMap<AppDeps, ProviderAnswers | null>();

function answersOf(deps: AppDeps): ProviderAnswers | null {
  if (!byApp.has(deps)) {
    // 0 seconds caches nothing (lru-cache would read a ttl of 0 as "never expires").
    const ttl = deps.config.RESULTS_CACHE_SECONDS * 1000;
    byApp.set(deps, ttl > 0 ? { labOrders: answerCache(ttl), imagingStudies: answerCache(ttl) } : null);
  }
  return byApp.get(deps)!;
}

export const refreshMessage = "El parámetro actualizar debe ser true o false";

/** REST `actualizar=true`: the list asks the provider again instead of taking its kept answer ('Actualizar'). */
export const ZActualizar = z
  .enum(["true", "false"], { error: refreshMessage })
  .transform((value) => value === "true")
  .describe("true: pide la lista de nuevo al proveedor en vez de usar su respuesta guardada (botón «Actualizar»)");

/** Whether a read may take a kept answer, or asks the provider and keeps its fresh answer ('Actualizar'). */
export interface ReadOptions {
  refresh?: boolean;
}

const keyOf = (scope: PatientScope, range: DayRange) => JSON.stringify([scope.patient.id, scope.patient.rut, range.from, range.to]);

async function read<V extends readonly unknown[]>(
  cache: LRUCache<string, V, Load<V>> | undefined,
  key: string,
  load: Load<V>,
  options: ReadOptions,
): Promise<V> {
  if (!cache) return load();
  const answer = await cache.fetch(key, { context: load, forceRefresh: options.refresh === true });
  // fetchMethod always returns the provider's answer or throws, so undefined does not happen; ask if it ever did.
  return answer ?? load();
}

/**
 * The laboratory's orders of the patient in `scope` (already checked: the signed-in patient or one they act for)
 * within the range, as the laboratory answered within RESULTS_CACHE_SECONDS. The release rules are not applied here.
 */
export function cachedLabOrders(deps: AppDeps, scope: PatientScope, range: DayRange, options: ReadOptions = {}): Promise<LabOrder[]> {
  const load = () => deps.providers.lab.listOrders(scope.patient.rut, range);
  return read(answersOf(deps)?.labOrders, keyOf(scope, range), load, options);
}

/** The PACS's studies of the patient in `scope` within the range, as the PACS answered within RESULTS_CACHE_SECONDS. */
export function cachedImagingStudies(
  deps: AppDeps,
  scope: PatientScope,
  range: DayRange,
  options: ReadOptions = {},
): Promise<ImagingStudy[]> {
  const load = () => deps.providers.imaging.searchStudies(scope.patient.rut, range);
  return read(answersOf(deps)?.imagingStudies, keyOf(scope, range), load, options);
}
