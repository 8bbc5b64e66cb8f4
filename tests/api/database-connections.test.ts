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

describe("a statement PostgreSQL refuses", () => {
  const openConnections = async (pool: pg.Pool) => {
    await Promise.all(Array.from({ length: 10 }, () => pool.query("SELECT pg_sleep(0.05)")));
    expect(pool.totalCount).toBe(10);
  };
  const backends = async (db: Database) => {
    const name = new URL((db.target as { url: string }).url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const result = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 ORDER BY pid", [name]);
      return result.rows.map((row) => row.pid);
    } finally {
      await admin.end();
    }
  };

  it("does not cost the pool its connection: pg-boss's expected conflicts and a patient's refused write leave the count as it was", async () => {
    const { db } = fresh;
    const pool = db.pool!;
    await openConnections(pool);
    const before = await backends(db);
    // pg-boss fetches a singleton queue's next job expecting a unique violation while another replica runs one (through
    // executeSql, as here); a write Prisma sends that PostgreSQL refuses takes the pool's same path.
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(db.executeSql("SELECT 1 / $1::int", [0])).rejects.toMatchObject({ code: "22012" });
      await expect(db.prisma.$queryRaw`SELECT 1 / ${0}::int`).rejects.toThrow();
    }
    expect(pool.totalCount).toBe(10);
    expect(await backends(db)).toEqual(before);
    const answers = await Promise.all(Array.from({ length: 10 }, () => db.executeSql("SELECT $1::int AS n", [7])));
    expect(answers.map((answer) => answer.rows[0])).toEqual(Array.from({ length: 10 }, () => ({ n: 7 })));
  });

  it("in a script that may have left a transaction open closes that connection, and the next queries still work", async () => {
    const { db } = fresh;
    const pool = db.pool!;
    await openConnections(pool);
    await expect(db.executeSql("BEGIN; SELECT 1 / 0; COMMIT")).rejects.toMatchObject({ code: "22012" });
    expect(pool.totalCount).toBe(9);
    const answers = await Promise.all(Array.from({ length: 10 }, () => db.executeSql("SELECT 1 AS n")));
    expect(answers.map((answer) => answer.rows[0])).toEqual(Array.from({ length: 10 }, () => ({ n: 1 })));
  });

  it("that ends the session (an operator's pg_terminate_backend) closes that connection", async () => {
    const { db } = fresh;
    const pool = db.pool!;
    await openConnections(pool);
    await expect(db.executeSql("SELECT pg_terminate_backend(pg_backend_pid()) WHERE $1::int = 1", [1])).rejects.toThrow();
    await expect.poll(() => pool.totalCount).toBe(9);
    expect((await db.executeSql("SELECT $1::int AS n", [1])).rows[0]).toEqual({ n: 1 });
  });
});
