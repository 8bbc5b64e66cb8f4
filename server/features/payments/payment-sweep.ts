import type { AppDeps } from "../../deps.ts";
import type { JobEngine } from "../../lib/job-engine.ts";
import { settlePendingPayments } from "./payment-settlement.ts";

// The periodic settlement of commits lost to a closed tab or a network error: a job of the process's job engine
// (server/lib/job-engine.ts) run once per PAYMENT_SWEEP_SECONDS across every replica (a singleton: never two at a
// time), no longer a timer on each. The claim in payment-settlement.ts still keeps two settlements of one payment apart.

export const PAYMENT_SWEEP_QUEUE_NAME = "payment-sweep";

/** Registers the sweep on the engine (it starts with the engine); nothing when PAYMENT_SWEEP_SECONDS is 0. */
export function registerPaymentSweep(deps: AppDeps, engine: JobEngine): void {
  const seconds = deps.config.PAYMENT_SWEEP_SECONDS;
  if (seconds === 0) return;
  engine.registerJob(PAYMENT_SWEEP_QUEUE_NAME, {
    // A sweep that fails waits for the next period rather than being retried on top of it.
    queue: { policy: "singleton", retryLimit: 0, expireInSeconds: Math.max(60, 2 * seconds), retentionDays: 1 },
    pollSeconds: Math.min(seconds, 5),
    handler: async () => {
      // Leave the patient time to come back and commit before the sweep steps in.
      await settlePendingPayments(deps, { olderThanMs: 2 * 60_000, limit: 50 }).catch((error: unknown) => {
        deps.logError(error, "payment sweep failed");
        throw error;
      });
    },
  });
  engine.every(PAYMENT_SWEEP_QUEUE_NAME, seconds);
}
