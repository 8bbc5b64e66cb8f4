import type { JobEngine } from "../../lib/job-engine.ts";

// The reminders of tomorrow's appointments (issue 44) as a job of the process's one job engine
// (server/lib/job-engine.ts, pg-boss in the portal's own database). A cron schedule adds one job per slot for the whole
// deployment, the queue's singleton policy lets one run at a time, and a failed run (the agenda down) is retried. What
// a run sends is claimed per appointment (appointment-reminders.ts), so a repeated run sends nothing twice.

export const REMINDER_QUEUE_NAME = "appointment-reminders";

export interface ReminderJobs {
  /** Queues a run now (the same job the schedule adds), for the day after `now` (default: the clock of the run). */
  runNow(now?: Date): Promise<void>;
}

export interface ReminderJobsOptions {
  engine: JobEngine;
  /** Cron expression (America/Santiago); empty: no schedule, runs only when asked (runNow). */
  cron: string;
  run(now: Date): Promise<unknown>;
}

/** Registers the reminders on the engine; they start with it. */
export function registerReminderJobs({ engine, cron, run }: ReminderJobsOptions): ReminderJobs {
  engine.registerJob<{ now?: string }>(REMINDER_QUEUE_NAME, {
    queue: { policy: "singleton", retryLimit: 3, retryDelay: 10 * 60, expireInSeconds: 30 * 60, retentionDays: 7 },
    pollSeconds: 5,
    handler: async (job) => {
      const at = job.data.now ? new Date(job.data.now) : new Date();
      await run(Number.isNaN(at.getTime()) ? new Date() : at);
    },
  });
  engine.schedule(REMINDER_QUEUE_NAME, cron);
  return {
    async runNow(now) {
      await engine.send(REMINDER_QUEUE_NAME, now ? { now: now.toISOString() } : {});
    },
  };
}
