import type { AppDeps } from "../deps.ts";
import { chileToday } from "./chile-time.ts";
import type { DayRange } from "../providers/lab/lab.provider.ts";
import { releaseLabOrder, type ReleasedLabOrder } from "./release-rules.ts";

// The laboratory as the patient may see it: every reader of results (the list, the detail, the PDF, the trends, the
// notices and the data download) takes orders from here, so a clinic's release rules (release-rules.ts) hold everywhere.

/** The patient's orders within the range, newest first, with the clinic's release rules applied. */
export async function releasedLabOrders(
  deps: Pick<AppDeps, "config" | "providers">,
  rut: string,
  range: DayRange,
): Promise<ReleasedLabOrder[]> {
  const today = chileToday();
  const orders = await deps.providers.lab.listOrders(rut, range);
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
