import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { createJobEngine, type JobEngine } from "../../server/lib/job-engine.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";
import { watchOutput } from "../helpers/processes.ts";

// One job engine per process (issue 46 §3), several processes on one PostgreSQL database: a periodic job runs once per
// period across instances (not once per instance, as the payment sweep's timer on every replica did), and a job whose
// process was killed with -9 in the middle is taken up again by another instance and completes.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const quiet = { warn() {} };

let fresh: FreshDatabase | undefined;
const opened: Database[] = [];
const engines: JobEngine[] = [];
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const engine of engines.splice(0)) await engine.stop();
  for (const db of opened.splice(0)) await db.close();
  await fresh?.drop();
  fresh = undefined;
});

async function instancesOn(count: number) {
  fresh = await freshDatabase(serverUrl, "pp_jobs");
  const url = (fresh.db.target as { url: string }).url;
  const dbs = [fresh.db];
  for (let i = 1; i < count; i++) dbs.push(await openDatabase({ kind: "postgres", url }));
  opened.push(...dbs.slice(1));
  return { url, dbs };
}

const jobRows = async (db: Database, name: string) =>
  (
    await db.executeSql(
      `SELECT id::text, state::text, retry_count AS "retryCount", singleton_on AS "slot" FROM pgboss.job WHERE name = $1
        UNION ALL
       SELECT id::text, state::text, retry_count, singleton_on FROM pgboss.archive WHERE name = $1`,
      [name],
    )
  ).rows as Array<{ id: string; state: string; retryCount: number; slot: Date | null }>;

describe("one job engine per process, two processes on one database", () => {
  it("runs a job scheduled every second once per second across both instances, each run on one of them", async () => {
    const { dbs } = await instancesOn(2);
    const runs: Array<{ instance: number; jobId: string; at: number }> = [];
    for (const [instance, db] of dbs.entries()) {
      const engine = createJobEngine({ sql: db.executeSql, log: quiet });
      engine.registerJob("tick", {
        queue: { policy: "singleton", retryLimit: 0, expireInSeconds: 60 },
        pollSeconds: 0.5,
        handler: async (job) => {
          runs.push({ instance, jobId: job.id, at: Date.now() });
        },
      });
      engine.every("tick", 1);
      engines.push(engine);
    }
    // Slots can be sent into from the first instance's start until the last one stops: the upper bound counts that
    // whole span (the first instance ticks while the second still starts); the lower bound only the 8 s both ran.
    const startedAt = Date.now();
    await Promise.all(engines.map((engine) => engine.start()));
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const seconds = (Date.now() - from) / 1000;
    for (const engine of engines.splice(0)) await engine.stop();
    const spanSeconds = (Date.now() - startedAt) / 1000;

    const rows = await jobRows(dbs[0]!, "tick");
    // One job per one-second slot, however many instances sent into it.
    const slots = rows.map((row) => new Date(row.slot!).getTime());
    expect(new Set(slots).size).toBe(rows.length);
    // Each job ran once, on one instance; and about once per second in all (a timer on each instance would run twice).
    expect(new Set(runs.map((run) => run.jobId)).size).toBe(runs.length);
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(seconds) - 1);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(spanSeconds) + 1);
    expect(rows.filter((row) => row.state === "completed").length).toBeGreaterThanOrEqual(runs.length - 1);
  }, 60_000);

  it("retries a job whose process was killed with -9 mid-run, and another instance completes it", async () => {
    const { url, dbs } = await instancesOn(1);
    child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/job-engine-child.ts"], {
      env: { ...process.env, JOB_ENGINE_DATABASE_URL: url, JOB_ENGINE_QUEUE: "interrupted" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = watchOutput(child, "started ", "el proceso del motor de trabajos", 60_000);
    await output.ready;
    const jobId = /started (\S+)/.exec(output.text)![1]!;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect((await jobRows(dbs[0]!, "interrupted")).find((row) => row.id === jobId)?.state).toBe("active");

    const completedHere: string[] = [];
    const engine = createJobEngine({ sql: dbs[0]!.executeSql, log: quiet, maintenanceSeconds: 1 });
    engine.registerJob<{ from: string }>("interrupted", {
      queue: { retryLimit: 2, retryDelay: 0, expireInSeconds: 3 },
      pollSeconds: 0.5,
      handler: async (job) => {
        completedHere.push(job.id);
      },
    });
    engines.push(engine);
    await engine.start();
    await expect
      .poll(async () => (await jobRows(dbs[0]!, "interrupted")).find((row) => row.id === jobId), { timeout: 30_000, interval: 250 })
      .toMatchObject({ state: "completed", retryCount: 1 });
    expect(completedHere).toEqual([jobId]);
  }, 90_000);
});
