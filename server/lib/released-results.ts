import type { AppDeps } from "../deps.ts";
import { chileToday } from "./chile-time.ts";
import type { DayRange, LabProvider } from "../providers/lab/lab.provider.ts";
import { releaseLabOrder, type ReleasedLabOrder } from "./release-rules.ts";

// The laboratory as the patient may see it: every reader of results (the list, the detail, the PDF, the trends, the
// notices and the data download) takes orders from here, so a clinic's release rules (release-rules.ts) hold everywhere.

/**
 * The patient's orders within the range, newest first, with the clinic's release rules applied. `source` is where the
 * laboratory's answer comes from: the laboratory itself, or the orders list's short-lived copy of its answer (issue 26);
 * the rules, which depend on today, apply to either on every read.
 */
export async function releasedLabOrders(
  deps: Pick<AppDeps, "config" | "providers">,
  rut: string,
  range: DayRange,
  source: Pick<LabProvider, "listOrders"> = deps.providers.lab,
): Promise<ReleasedLabOrder[]> {
  const today = chileToday();
  const orders = await source.listOrders(rut, range);
  return orders.map((order) => releaseLabOrder(deps.config.RESULT_RELEASE_RULES, order, today));
}

/** One order of the patient with the release rules applied, or null when the patient has no such order. */
export async function releasedLabOrder(
  deps: Pick<AppDeps, "config" | "providers">,
  rut: string,
  orderNumber: string,
): Promise<ReleasedLabOrder | null> {
  const order = await deps.providers.lab.getOrder(rut, orderNumber);
  return order ? releaseLabOrder(deps.config.RESULT_RELEASE_RULES, order, chileToday()) : null;
}
