import { openDatabase } from "../../server/db/database.ts";
import { createJobEngine } from "../../server/lib/job-engine.ts";

// A portal process's job engine on its own (tests/api/job-engine-instances.test.ts): takes one job of
// JOB_ENGINE_QUEUE, says "started <id>" and never finishes it, so the test can kill -9 the process mid-job.

const url = process.env.JOB_ENGINE_DATABASE_URL;
const queue = process.env.JOB_ENGINE_QUEUE;
if (!url || !queue) throw new Error("JOB_ENGINE_DATABASE_URL and JOB_ENGINE_QUEUE are required");
const db = await openDatabase({ kind: "postgres", url });
const engine = createJobEngine({ sql: db.executeSql, log: { warn: (details, message) => console.error(message, details) } });
engine.registerJob(queue, {
  queue: { retryLimit: 2, retryDelay: 0, expireInSeconds: 3 },
  pollSeconds: 0.5,
  handler: async (job) => {
    console.log(`started ${job.id}`);
    await new Promise(() => {});
  },
});
await engine.start();
console.log(`queued ${await engine.send(queue, { from: "child" })}`);
