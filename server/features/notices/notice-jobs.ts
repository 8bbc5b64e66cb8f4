import PgBoss from "pg-boss";
import { createQueueRetryingDeadlocks } from "../../providers/mail/job-queues.ts";
import type { SqlExecutor } from "../../providers/mail/mail-queue.ts";

// The scheduled search for new results (issue 31), on the durable job engine the mail queue already uses (pg-boss, in
// the portal's own database: PostgreSQL or the embedded PGlite). A cron schedule adds one job per slot for the whole
// deployment (pg-boss keeps one per minute however many instances run), the queue's singleton policy lets one run at
// a time, and a run that fails is retried. Each notice is still claimed on its own (SentNotice), so a repeated run
// sends nothing twice.

export const NOTICE_QUEUE_NAME = "result-notices";

export interface NoticeJobs {
  start(): Promise<void>;
  /** Queues a run now (the same job the schedule adds); resolves once it is queued. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export interface NoticeJobsOptions {
  sql: SqlExecutor;
  /** Cron expression (America/Santiago); empty: no schedule, runs only when asked (runNow). */
  cron: string;
  run(): Promise<unknown>;
  /**
   * Starts the instance that owns pg-boss's tables (the mail queue): two instances creating them at once on the one
   * embedded connection would leave it in a failed transaction.
   */
  tablesReady(): Promise<void>;
  log: { warn(details: object, message: string): void };
}

export function createNoticeJobs(options: NoticeJobsOptions): NoticeJobs {
  let stopped = false;
  const boss = new PgBoss({
    // As in the mail queue: once stopped, pg-boss's late bookkeeping never reaches the closed pool.
    db: {
      executeSql: (text, values) => (stopped ? new Promise<never>(() => {}) : options.sql(text, values)) as Promise<{ rows: never[] }>,
    },
    schedule: options.cron !== "",
    // The mail queue's instance creates, migrates and maintains (expiry, archive) the shared pg-boss tables.
    supervise: false,
    migrate: false,
  });
  let lastErrorLog = 0;
  boss.on("error", (error) => {
    if (Date.now() - lastErrorLog < 60_000) return;
    lastErrorLog = Date.now();
    options.log.warn({ err: error }, "result notices: database error (the next run picks up)");
  });
  let started: Promise<void> | undefined;
  let workerId: string | undefined;

  return {
    start() {
      started ??= (async () => {
        await options.tablesReady();
        await boss.start();
        await createQueueRetryingDeadlocks(boss, NOTICE_QUEUE_NAME, {
          name: NOTICE_QUEUE_NAME,
          policy: "singleton",
          retryLimit: 3,
          retryDelay: 60,
          expireInSeconds: 15 * 60,
          retentionDays: 7,
        });
        if (options.cron) {
          await boss.schedule(NOTICE_QUEUE_NAME, options.cron, {}, { tz: "America/Santiago" });
          // Also a run at start-up, so what arrived while the portal was down is not left for the next slot.
          await boss.send(NOTICE_QUEUE_NAME, {});
        } else await boss.unschedule(NOTICE_QUEUE_NAME);
        workerId = await boss.work(NOTICE_QUEUE_NAME, { batchSize: 1, pollingIntervalSeconds: 5 }, async () => {
          await options.run();
        });
      })().catch((error: unknown) => {
        started = undefined;
        throw error;
      });
      return started;
    },
    async runNow() {
      await this.start();
      await boss.send(NOTICE_QUEUE_NAME, {});
      if (workerId) boss.notifyWorker(workerId);
    },
    async stop() {
      if (!started) {
        stopped = true;
        return;
      }
      await started.catch(() => {});
      try {
        await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
      } finally {
        stopped = true;
      }
    },
  };
}
