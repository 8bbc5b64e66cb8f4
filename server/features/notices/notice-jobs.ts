import type { JobEngine } from "../../lib/job-engine.ts";

// The scheduled search for new results (issue 31), a job of the process's one job engine (server/lib/job-engine.ts,
// pg-boss in the portal's own database). A cron schedule adds one job per slot for the whole deployment, the queue's
// singleton policy lets one run at a time, and a run that fails is retried. Each notice is still claimed on its own
// (SentNotice), so a repeated run sends nothing twice.

export const NOTICE_QUEUE_NAME = "result-notices";

export interface NoticeJobs {
  /** Queues a run now (the same job the schedule adds); resolves once it is queued. */
  runNow(): Promise<void>;
}

export interface NoticeJobsOptions {
  engine: JobEngine;
  /** Cron expression (America/Santiago); empty: no schedule, runs only when asked (runNow). */
  cron: string;
  run(): Promise<unknown>;
}

/** Registers the search on the engine; it starts with the engine. */
export function registerNoticeJobs({ engine, cron, run }: NoticeJobsOptions): NoticeJobs {
  engine.registerJob(NOTICE_QUEUE_NAME, {
    queue: { policy: "singleton", retryLimit: 3, retryDelay: 60, expireInSeconds: 15 * 60, retentionDays: 7 },
    pollSeconds: 5,
    handler: async () => {
      await run();
    },
  });
  engine.schedule(NOTICE_QUEUE_NAME, cron);
  return {
    async runNow() {
      await engine.send(NOTICE_QUEUE_NAME, {});
    },
  };
}
