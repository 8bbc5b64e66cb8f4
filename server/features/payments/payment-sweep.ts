import type { AppDeps } from "../../deps.ts";
import { settlePendingPayments } from "./payment-settlement.ts";

// The periodic settlement of commits lost to a closed tab or a network error, started by the app (app.ts). A timer in
// each instance for now; the claim in payment-settlement.ts keeps two instances from settling one payment twice.

/** Starts the periodic sweep of lost commits; returns the function that stops it. */
export function startPaymentSweep(deps: AppDeps): () => void {
  const seconds = deps.config.PAYMENT_SWEEP_SECONDS;
  if (seconds === 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Leave the patient time to come back and commit before the sweep steps in.
    settlePendingPayments(deps, { olderThanMs: 2 * 60_000, limit: 50 })
      .catch((error: unknown) => deps.logError(error, "payment sweep failed"))
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
