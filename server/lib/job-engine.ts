import PgBoss from "pg-boss";
import { isDeadlock } from "../db/db-errors.ts";

// The one durable job engine of a process (issue 46 §3): a single pg-boss in the portal's own database (PostgreSQL, or
// the embedded PGlite on its one connection), shared by every background job — outbound mail, the search for new
// results, the payment sweep, appointment reminders. A feature registers its job (queue options and handler) and,
// when it is periodic, a schedule; the engine makes the queues, workers and schedules when it starts.
//
// Jobs run once across replicas: pg-boss hands a job to one worker at a time (SKIP LOCKED). A cron schedule adds one
// job per slot for the whole deployment; a period in seconds (`every`) sends into a throttled slot of that length
// (pg-boss's singletonSeconds, computed from the database's clock), so however many instances tick, each slot holds
// one job. A job whose process died mid-run (kill -9) stays active until its expireInSeconds, when maintenance (on
// every instance) marks it failed and it is retried on whichever instance polls first.

/** Runs one SQL statement (with parameters) or a script (without), as pg-boss's `db` option expects. */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

type Log = { warn(details: object, message: string): void };

export interface JobDefinition<T extends object> {
  /** pg-boss queue options (retries, expiry, policy); the name is the job's. */
  queue: Omit<PgBoss.Queue, "name">;
  /** How long an idle worker waits before it looks again (a send on this instance wakes it at once). */
  pollSeconds?: number;
  handler(job: PgBoss.Job<T>): Promise<unknown>;
}

export interface JobEngine {
  /** Adds a job (its queue and a worker on this instance); made at start, or at once when already started. */
  registerJob<T extends object>(name: string, definition: JobDefinition<T>): void;
  /**
   * Runs a registered job on a cron schedule (America/Santiago), once per slot across the deployment; an empty cron
   * removes a schedule left by an earlier configuration.
   */
  schedule(name: string, cron: string): void;
  /** Runs a registered job every `seconds` (1–3600), once per period across the deployment. */
  every(name: string, seconds: number): void;
  /** Queues a job now and wakes this instance's worker. */
  send<T extends object>(name: string, data: T): Promise<string | null>;
  /** The engine's SQL, for reads of its job table (the admins' view of stuck mail). */
  sql: SqlExecutor;
  start(): Promise<void>;
  /**
   * Keeps the engine from starting, and refuses sends, until keepStarting(): the process is warming up inside a
   * transaction that is rolled back (ops/warm-up.ts), where a job queued or fetched would be undone or done twice.
   */
  hold(): void;
  /**
   * Starts now (ending a hold), or keeps retrying every 5 s while the database does not answer. Resolves once the first
   * attempt has settled, whether it started the engine or left it to the retries (it never rejects).
   */
  keepStarting(): Promise<void>;
  stop(): Promise<void>;
}

export interface JobEngineOptions {
  sql: SqlExecutor;
  log: Log;
  /** How often maintenance (expiry of jobs whose worker died, archiving) runs; 60 s in production. */
  maintenanceSeconds?: number;
}

/**
 * pg-boss's createQueue, tried again when PostgreSQL aborts it as a deadlock. Its create_queue attaches a new partition
 * to the shared job table without a lock of its own, so two instances making their queues at once (the first start of
 * a deployment) deadlock, and PostgreSQL aborts one of them. Tried again, that one finds the queue made
 * (create_queue does nothing then) or makes it alone.
 */
async function createQueueRetryingDeadlocks(boss: PgBoss, name: string, options: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, options);
      return;
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

export function createJobEngine(options: JobEngineOptions): JobEngine {
  let stopped = false;
  const maintenanceSeconds = options.maintenanceSeconds ?? 60;
  const definitions = new Map<string, JobDefinition<object>>();
  const crons = new Map<string, string>();
  const periods = new Map<string, number>();
  const workerIds = new Map<string, string>();
  const tickers: NodeJS.Timeout[] = [];
  let started: Promise<void> | undefined;
  let stopping = false;
  let held = false;
  const heldMessage = "job engine: held while the process warms up (nothing is queued or fetched until it starts)";
  let retryTimer: NodeJS.Timeout | undefined;
  let boss: PgBoss | undefined;
  let lastErrorLog = 0;
  function warnOfDatabaseError(error: unknown) {
    // While the database is down every poll fails: say so once a minute, not every second.
    if (Date.now() - lastErrorLog < 60_000) return;
    lastErrorLog = Date.now();
    options.log.warn({ err: error }, "job engine: database error (jobs resume when it answers)");
  }

  /** Made at the first start, once the jobs are registered: the cron clock runs only when a job has a cron. */
  function theBoss(): PgBoss {
    if (boss) return boss;
    boss = new PgBoss({
      // Once stopped, pg-boss's late bookkeeping (completing or failing a job that outlived the stop) never runs: it
      // neither reaches the closed pool nor reads a made-up answer, so nothing rejects unhandled. That job stays
      // active, expires and is retried.
      db: {
        executeSql: (text, values) => (stopped ? new Promise<never>(() => {}) : options.sql(text, values)) as Promise<{ rows: never[] }>,
      },
      schedule: [...crons.values()].some((cron) => cron !== ""),
      maintenanceIntervalSeconds: maintenanceSeconds,
      monitorStateIntervalSeconds: 60,
    });
    boss.on("error", warnOfDatabaseError);
    return boss;
  }

  async function setUpJob(name: string, definition: JobDefinition<object>) {
    const boss = theBoss();
    await createQueueRetryingDeadlocks(boss, name, { name, ...definition.queue });
    const workerId = await boss.work<object>(name, { batchSize: 1, pollingIntervalSeconds: definition.pollSeconds ?? 2 }, async ([job]) => {
      if (job) await definition.handler(job);
    });
    workerIds.set(name, workerId);
  }

  async function setUpCron(name: string, cron: string) {
    const boss = theBoss();
    if (cron) await boss.schedule(name, cron, {}, { tz: "America/Santiago" });
    else await boss.unschedule(name);
  }

  /** Sends into the current slot of `seconds`: the first send of a slot queues the job, the others find it there. */
  async function sendIntoSlot(name: string, seconds: number) {
    const boss = theBoss();
    const id = await boss.sendThrottled(name, {}, {}, seconds, "periodic");
    const workerId = workerIds.get(name);
    if (id && workerId) boss.notifyWorker(workerId);
  }

  function startTicking(name: string, seconds: number) {
    // A few ticks per period, so the slot's job is queued early in the slot whichever instance ticks first.
    const tick = () => {
      if (!stopping) sendIntoSlot(name, seconds).catch(warnOfDatabaseError);
    };
    tick();
    const timer = setInterval(tick, Math.max(250, (seconds * 1000) / 4));
    timer.unref();
    tickers.push(timer);
  }

  /** A job registered while the engine starts or runs is set up after that start (a failed start sets it up itself). */
  function whenStarted(setUp: () => Promise<void>, name: string) {
    started?.then(setUp, () => {}).catch((error: unknown) => options.log.warn({ err: error, job: name }, "job engine: job not set up"));
  }

  const engine: JobEngine = {
    sql: options.sql,
    registerJob(name, definition) {
      if (definitions.has(name)) throw new Error(`job ${name} is already registered`);
      definitions.set(name, definition as JobDefinition<object>);
      whenStarted(() => setUpJob(name, definition as JobDefinition<object>), name);
    },
    schedule(name, cron) {
      crons.set(name, cron);
      whenStarted(() => setUpCron(name, cron), name);
    },
    every(name, seconds) {
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) throw new Error(`job ${name}: period of ${seconds} s`);
      periods.set(name, seconds);
      whenStarted(async () => startTicking(name, seconds), name);
    },
    async send(name, data) {
      await engine.start(); // refused while held
      const boss = theBoss();
      const id = await boss.send(name, data);
      const workerId = workerIds.get(name);
      if (workerId) boss.notifyWorker(workerId);
      return id;
    },
    start() {
      if (held) return Promise.reject(new Error(heldMessage));
      started ??= (async () => {
        // What is registered from here on is set up once this start has finished (whenStarted).
        const jobs = [...definitions];
        const schedules = [...crons];
        const periodic = [...periods];
        await theBoss().start();
        for (const [name, definition] of jobs) await setUpJob(name, definition);
        for (const [name, cron] of schedules) await setUpCron(name, cron);
        for (const [name, seconds] of periodic) startTicking(name, seconds);
      })().catch((error: unknown) => {
        started = undefined; // the database was not there: the next send (or keepStarting) tries again
        throw error;
      });
      return started;
    },
    hold() {
      if (started) throw new Error("job engine: already started, it cannot be held");
      held = true;
    },
    keepStarting() {
      held = false;
      // At boot the database may be down (it is restarting): keep trying in the background instead of failing to start.
      const attempt = async (): Promise<void> => {
        if (stopping) return;
        await engine.start().catch(() => {
          retryTimer = setTimeout(() => void attempt(), 5_000);
          retryTimer.unref();
        });
      };
      return attempt();
    },
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      for (const timer of tickers.splice(0)) clearInterval(timer);
      if (!started) {
        stopped = true;
        return;
      }
      await started.catch(() => {});
      try {
        // Longer than SMTP's 10 s connection timeout: a job in flight usually finishes (and is marked done) before the
        // database pool closes under it; one cut short is retried.
        await theBoss().stop({ graceful: true, wait: true, timeout: 15_000 });
      } finally {
        stopped = true;
      }
    },
  };
  return engine;
}
