import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// PostgreSQL may end the portal's connections at any time (a restart, a failover, an operator's
// pg_terminate_backend): the process must not crash on it, and the next query must get a new connection.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase(serverUrl);
});
afterAll(() => fresh.drop());

async function terminateConnectionsTo(db: Database): Promise<number> {
  const name = new URL((db.target as { url: string }).url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe("the database connection pool", () => {
  it("survives the server ending its idle connections, and the next query opens a new one", async () => {
    const { db } = fresh;
    const backend = async () => (await db.prisma.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
    const [users, , pidBefore] = await Promise.all([db.prisma.user.count(), db.prisma.clinic.count(), backend()]);
    expect(await terminateConnectionsTo(db)).toBeGreaterThan(0);
    // The pool drops each ended connection when it hears of it; then the next query must get a working one.
    await expect.poll(() => db.pool!.totalCount).toBe(0);
    expect(await db.prisma.user.count()).toBe(users);
    expect(await backend()).not.toBe(pidBefore);
  });

  it("keeps the connections it opened through a quiet moment, so the next burst does not wait to open them again", async () => {
    const pool = fresh.db.pool!;
    // pg closes a connection idle for idleTimeoutMillis by a timer: a minute passes on the clock, not in the test.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await Promise.all(Array.from({ length: 10 }, () => pool.query("SELECT pg_sleep(0.05)")));
      expect(pool.totalCount).toBe(10);
      vi.advanceTimersByTime(60_000);
      expect(pool.totalCount).toBe(10);
      expect(pool.idleCount).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
