import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openRollbackOnlyTransaction, TransactionControlRefused, type RollbackOnlyTransaction } from "../../server/db/rollback-only.ts";
import { prepareWarmUp } from "../../server/ops/warm-up.ts";
import { api, bearer, createTestContext, demo, secondInstance, type TestContext } from "../helpers/test-app.ts";

// A cold start that holds (issue 46 §4): before /readyz says ready, the process runs its hot routes with a 200 for a
// warm-up patient and staff member created inside a transaction that is rolled back (server/ops/warm-up.ts,
// server/db/rollback-only.ts). What must hold: the routes answer 200 in there, and the clinic's database keeps
// nothing of it — not after the warm-up, not when a COMMIT is tried inside it, not when the process dies halfway.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { databaseServerUrl: serverUrl });
  // Listening, as in main.ts: the warm-up then sends its requests through the process's own HTTP server.
  await ctx.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => ctx?.close());

/** Every table's row count and its largest id where it has one: what a warm-up must leave as it found it. */
async function databaseContents(): Promise<Record<string, string>> {
  const pool = ctx.db.pool!;
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const contents: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await pool.query<{ rows: string; digest: string | null }>(
      `SELECT count(*)::text AS rows, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${name} t`,
    );
    contents[name] = `${rows[0]!.rows} ${rows[0]!.digest ?? ""}`;
  }
  return contents;
}

describe("the warm-up before /readyz", () => {
  it("runs the patients', staff's and visitors' hot routes with a 200 and leaves the database as it found it", async () => {
    const before = await databaseContents();
    const warmUp = prepareWarmUp(ctx.app);
    const report = await warmUp.run({ rounds: 1, realRounds: 2 });
    expect(report.skipped).toBeUndefined();
    expect(report.realRoutes!.rounds).toBe(2);
    // The sign-in page is served from the web app's build, which a test run may not have made.
    const webBuilt = existsSync(path.join(ctx.config.WEB_DIST_DIR, "index.html"));
    expect(report.realRoutes!.refusedRoutes).toEqual(webBuilt ? {} : { "GET /login": 2 });
    expect(report.realRoutes!.statuses["200"]).toBeGreaterThanOrEqual(20);
    expect(report.realRoutes!.statements.refused).toBe(0);
    expect(warmUp.pending()).toBe(false);
    expect(await databaseContents()).toEqual(before);
  });

  it("holds a user's request that arrives meanwhile until the transaction is rolled back, then answers it from the database", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const warmUp = prepareWarmUp(ctx.app);
    const running = warmUp.run({ rounds: 0, realRounds: 20 });
    let warmUpEnded = false;
    void running.then(() => (warmUpEnded = true));
    await expect.poll(() => ctx.app.warmUpGate.closedUntil !== null, { interval: 5 }).toBe(true);
    const search = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users?param=calentamiento"), headers: bearer(token) });
    expect(warmUpEnded).toBe(true);
    expect((await running).realRoutes!.rounds).toBe(20);
    expect(search.statusCode).toBe(200);
    expect(search.body).not.toMatch(/calentamiento/i);
    expect(search.json()).toMatchObject({ total: 0 });
  });

  it("stops its rounds when the app closes meanwhile (SIGTERM while starting), and still leaves nothing", async () => {
    const before = await databaseContents();
    const other = await secondInstance(ctx);
    const running = prepareWarmUp(other.app).run({ rounds: 0, realRounds: 1_000, realBudgetMs: 60_000 });
    await expect.poll(() => other.app.warmUpGate.closedUntil !== null, { interval: 5 }).toBe(true);
    await other.close();
    // The close may come while the warm-up's cast is being created (the rounds then report why they stopped) or
    // between two rounds.
    const report = await running;
    expect(report.realRoutes?.rounds ?? 0).toBeLessThan(1_000);
    expect(await databaseContents()).toEqual(before);
  });
});

describe("the warm-up's transaction", () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: (ctx.db.target as { url: string }).url, max: 3 });
  });
  afterAll(() => pool.end());
  // A failed assertion must not leave the next test inside this one's transaction.
  let transaction: RollbackOnlyTransaction | undefined;
  afterEach(async () => {
    await transaction?.end().catch(() => {});
    transaction = undefined;
  });

  /** Clinics with that title, seen from outside the transaction (another pool), or from `via`. */
  const clinicsNamed = async (title: string, via: pg.Pool = ctx.db.pool!) =>
    (await via.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Clinic" WHERE title = $1`, [title])).rows[0]!.n;

  it("refuses a COMMIT, END or ROLLBACK sent through the pool, alone or inside a script, and keeps nothing written", async () => {
    transaction = await openRollbackOnlyTransaction(pool);
    await pool.query(`UPDATE "Clinic" SET title = 'calentada' WHERE code = (SELECT min(code) FROM "Clinic")`);
    for (const script of ["COMMIT", "end", "ROLLBACK", "SELECT 1; COMMIT", "SELECT 1;\n  commit;", "PREPARE TRANSACTION 'x'", "BEGIN"])
      await expect(pool.query(script)).rejects.toBeInstanceOf(TransactionControlRefused);
    expect(await clinicsNamed("calentada", pool)).toBe(1); // inside the transaction it is there
    expect(await clinicsNamed("calentada")).toBe(0); // outside, not
    await transaction.end();
    expect(await clinicsNamed("calentada")).toBe(0);
  });

  it("turns a transaction the code opens (Prisma's interactive ones) into a savepoint, and keeps nothing it committed", async () => {
    const { PrismaClient } = await import("../../server/generated/prisma/client.ts");
    const { PortalPgAdapterFactory } = await import("../../server/db/adapters.ts");
    const prisma = new PrismaClient({ adapter: new PortalPgAdapterFactory(pool) });
    try {
      transaction = await openRollbackOnlyTransaction(pool);
      const first = await prisma.clinic.findFirstOrThrow({ orderBy: { code: "asc" } });
      await prisma.$transaction(async (tx) => {
        await tx.clinic.update({ where: { code: first.code }, data: { title: "calentada" } });
      });
      await expect(
        prisma.$transaction(async (tx) => {
          await tx.clinic.update({ where: { code: first.code }, data: { title: "calentada dos veces" } });
          throw new Error("deshecha");
        }),
      ).rejects.toThrow("deshecha");
      expect((await prisma.clinic.findFirstOrThrow({ where: { code: first.code } })).title).toBe("calentada");
      await transaction.end();
      expect(await clinicsNamed("calentada")).toBe(0);
      expect((await prisma.clinic.findFirstOrThrow({ where: { code: first.code } })).title).toBe(first.title);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("cannot commit even when a COMMIT reaches it, and sends nothing more once it has ended", async () => {
    transaction = await openRollbackOnlyTransaction(pool);
    await pool.query(`UPDATE "Clinic" SET title = 'calentada' WHERE code = (SELECT min(code) FROM "Clinic")`);
    // A COMMIT past the refusal (here: the transaction's own connection, reached through pg's internals) fails on the
    // guard's broken deferred foreign key, and PostgreSQL rolls everything back.
    const connection = (pool as unknown as { _clients: pg.PoolClient[] })._clients.find(
      (client) => (client as unknown as { getTransactionStatus(): string }).getTransactionStatus() === "T",
    )!;
    await expect(connection.query("COMMIT")).rejects.toThrow(/portal_warm_up_guard/);
    expect(await clinicsNamed("calentada")).toBe(0);
    // Outside any transaction now: the next statement would commit on its own, so it is not sent.
    await expect(pool.query(`UPDATE "Clinic" SET title = 'calentada'`)).rejects.toBeInstanceOf(TransactionControlRefused);
    await transaction.end().catch(() => {});
    expect(await clinicsNamed("calentada")).toBe(0);
  });

  it("leaves nothing when its connection is cut halfway (what PostgreSQL sees of a process killed with -9)", async () => {
    transaction = await openRollbackOnlyTransaction(pool);
    await pool.query(`UPDATE "Clinic" SET title = 'calentada' WHERE code = (SELECT min(code) FROM "Clinic")`);
    const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
    await admin.end();
    await transaction.end().catch(() => {});
    expect(await clinicsNamed("calentada")).toBe(0);
  });
});
