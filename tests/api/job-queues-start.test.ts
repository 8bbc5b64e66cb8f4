import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { registerNoticeJobs, NOTICE_QUEUE_NAME } from "../../server/features/notices/notice-jobs.ts";
import { PAYMENT_SWEEP_QUEUE_NAME, registerPaymentSweep } from "../../server/features/payments/payment-sweep.ts";
import { createJobEngine, type JobEngine } from "../../server/lib/job-engine.ts";
import { createMailQueue, MAIL_QUEUE_NAME } from "../../server/providers/mail/mail-queue.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// Instances that start together on a database whose job queues are not made yet (the first start of a deployment with
// two instances, or of the load and fault harnesses) each create the mail, notice and payment-sweep queues. pg-boss's create_queue
// attaches a partition to its job table without a lock of its own, and PostgreSQL aborted one of two such creations
// as a deadlock (40P01) in 6 of 10 tries: that instance's notices never started, and a mail sent meanwhile was lost
// (the ops-logs test's missing password-reset mail). On PostgreSQL: one embedded connection cannot deadlock.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const quiet = { warn() {}, error() {}, info() {} } as never;

let fresh: FreshDatabase | undefined;
const opened: Database[] = [];
const running: JobEngine[] = [];
/** Stops every instance started, closes their databases and drops the fresh one (after each round, and after a failure). */
async function stopEverything() {
  for (const engine of running.splice(0)) await engine.stop();
  for (const db of opened.splice(0)) await db.close();
  await fresh?.drop();
  fresh = undefined;
}
afterEach(stopEverything);

function instanceOn(db: Database) {
  const engine = createJobEngine({ sql: db.executeSql, log: quiet });
  createMailQueue({
    engine,
    transport: { send: async () => {}, close() {} } as never,
    secret: "una-clave-de-prueba-de-mas-de-32-caracteres",
    retrySeconds: 5,
    log: quiet,
  });
  registerNoticeJobs({ engine, cron: "", run: async () => {} });
  registerPaymentSweep({ config: { PAYMENT_SWEEP_SECONDS: 60 } } as never, engine);
  running.push(engine);
  return engine;
}

describe("job queues when instances start together", () => {
  it("three instances starting at once on a fresh database all start their job engine with every queue, five times in a row", async () => {
    for (let round = 0; round < 5; round++) {
      fresh = await freshDatabase(serverUrl, "pp_queues");
      const url = (fresh.db.target as { url: string }).url;
      const dbs = [fresh.db, ...(await Promise.all([openDatabase({ kind: "postgres", url }), openDatabase({ kind: "postgres", url })]))];
      opened.push(...dbs.slice(1));
      const instances = dbs.map(instanceOn);
      const started = await Promise.allSettled(instances.map((engine) => engine.start()));
      const refused = started.flatMap((outcome) => (outcome.status === "rejected" ? [String((outcome.reason as Error).message)] : []));
      expect(refused, `round ${round}`).toEqual([]);
      const { rows } = await fresh.db.executeSql("SELECT name FROM pgboss.queue ORDER BY name", []);
      expect(rows.map((row) => (row as { name: string }).name)).toEqual(
        [MAIL_QUEUE_NAME, NOTICE_QUEUE_NAME, PAYMENT_SWEEP_QUEUE_NAME].sort(),
      );
      await stopEverything();
    }
  }, 120_000);
});
