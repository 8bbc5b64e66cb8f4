import { LRUCache } from "lru-cache";
import { VALIDATED } from "../../contract/results.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { audit } from "../../lib/audit.ts";
import { requirePatient } from "./patient-access.ts";
import { defaultRange } from "./result-dates.ts";

// Issue 33: the newest laboratory and imaging results in the summary at the top of 'Mi cuenta' (like MyChart's home).
// 'Mi cuenta' is the landing after every login, so the providers' answer is kept per patient for a short while
// (lru-cache, as the laboratory's patient-id cache): a patient moving around the portal does not ask the laboratory and
// the PACS again each time. A provider that fails is reported as unavailable and not kept; the other one still answers.

/** How long a patient's newest results are kept: a new result shows on 'Mi cuenta' at most this late. */
export const LATEST_RESULTS_TTL_MS = 60_000;
const MAX_PATIENTS = 5_000;

/** The newest result day (YYYY-MM-DD) of one service in the last 12 months, null when there is none, or unavailable. */
export type NewestResult = { available: true; newest: string | null } | { available: false };

export interface LatestResults {
  laboratory: NewestResult;
  imaging: NewestResult;
}

type Service = keyof LatestResults;
const newestOf = (days: string[]): string | null =>
  days.reduce<string | null>((newest, day) => (newest === null || day > newest ? day : newest), null);

// One cache per app (its providers and its database), so two apps in one process never share patients' answers.
const cachesByApp = new WeakMap<AppDeps, LRUCache<string, { newest: string | null }>>();
function cacheOf(deps: AppDeps) {
  let cache = cachesByApp.get(deps);
  if (!cache) {
    cache = new LRUCache({ max: MAX_PATIENTS * 2, ttl: LATEST_RESULTS_TTL_MS });
    cachesByApp.set(deps, cache);
  }
  return cache;
}

/** The newest laboratory and imaging results of the signed-in patient; staff get 403. */
export async function latestResults(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<LatestResults> {
  requirePatient(user);
  const cache = cacheOf(deps);
  const range = defaultRange();
  const ask = async (service: Service, load: () => Promise<string[]>): Promise<NewestResult> => {
    const key = `${user.id}:${service}`;
    let known = cache.get(key);
    if (!known) {
      try {
        known = { newest: newestOf(await load()) };
      } catch {
        return { available: false };
      }
      cache.set(key, known);
    }
    return { available: true, newest: known.newest };
  };
  const [laboratory, imaging] = await Promise.all([
    // Only a validated order is a result to point at; one 'Pendiente Validación' has nothing to show yet (issue 45).
    ask("laboratory", async () =>
      (await deps.providers.lab.listOrders(user.rut, range)).filter((order) => order.status === VALIDATED).map((order) => order.date),
    ),
    ask("imaging", async () => (await deps.providers.imaging.searchStudies(user.rut, range)).map((study) => study.date)),
  ]);
  const summary = { summary: true, from: range.from, to: range.to };
  if (laboratory.available)
    await audit(deps, user, meta, {
      patientId: user.id,
      action: "lab.orders.list",
      resource: "LabOrder",
      after: { ...summary, newest: laboratory.newest },
    });
  if (imaging.available)
    await audit(deps, user, meta, {
      patientId: user.id,
      action: "imaging.studies.list",
      resource: "ImagingStudy",
      after: { ...summary, newest: imaging.newest },
    });
  return { laboratory, imaging };
}
