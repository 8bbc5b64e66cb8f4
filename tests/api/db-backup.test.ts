import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { backup, restore } from "../../server/db/backup.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { seedDemoData } from "../../server/db/seed.ts";
import { emptyDatabase, freshDatabase } from "../helpers/fresh-database.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";
import { freePort } from "../helpers/ports.ts";

// npm run db:backup / db:restore: a copy restored into a new database serves the same accounts, on PostgreSQL and on
// the embedded database (copied only while no process has it open).

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const workDir = mkdtempSync(path.join(tmpdir(), "pp-backup-"));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(workDir, { recursive: true, force: true });
});

const operator = { rut: rutOf(13131313), password: "Respaldo2026", email: "respaldo@clinica.cl" };

async function emptyPostgresDatabase(): Promise<string> {
  const empty = await emptyDatabase(serverUrl, "pp_test_restore");
  cleanups.push(empty.drop);
  return empty.url;
}

/** Logs the account in through a portal built on `db`. */
async function logsIn(db: Database, who: { rut: string; password: string }, portal: "new-login" | "admin-login" = "new-login") {
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: "test" }, { LOG_LEVEL: "silent", PAYMENT_SWEEP_SECONDS: "0" }),
    db,
    logger: false,
  });
  try {
    const response = await app.inject({ method: "POST", url: `/api/rcr/v1/auth/${portal}`, payload: who });
    return response.statusCode;
  } finally {
    await app.close();
  }
}

describe("backups of a PostgreSQL database (pg_dump / pg_restore)", () => {
  it("restores into a new database where the same accounts log in and every count matches", async () => {
    const source = await freshDatabase(serverUrl);
    cleanups.push(() => source.drop());
    await seedDemoData(source.db.prisma, { onlyWhenEmpty: false });
    await insertUser(source.db.prisma, { ...operator, roleType: 2, firstName: "Respaldo", lastName: "Prueba" });
    const file = path.join(workDir, "portal.dump");
    await backup({ kind: "postgres", url: (source.db.target as { url: string }).url }, file);

    const targetUrl = await emptyPostgresDatabase();
    await restore({ kind: "postgres", url: targetUrl }, file);
    const restored = await openDatabase({ kind: "postgres", url: targetUrl });
    cleanups.push(() => restored.close());
    // Triggers come back after the data, so the bills' file counts are not counted a second time.
    const filesCount = async (db: Database) => (await db.prisma.bill.aggregate({ _sum: { filesCount: true } }))._sum.filesCount;
    expect(await filesCount(restored)).toBeGreaterThan(0);
    expect(await filesCount(restored)).toBe(await filesCount(source.db));
    expect(await restored.prisma.user.count()).toBe(await source.db.prisma.user.count());
    await expect(restored.prisma.$executeRawUnsafe(`TRUNCATE "AuditEvent"`)).rejects.toThrow(/solo admite agregar/);
    expect(await logsIn(restored, operator)).toBe(200);
    expect(await logsIn(restored, { rut: "11.111.111-1", password: "Admin2026" }, "admin-login")).toBe(200);
  }, 60_000);

  it("refuses, through npm run db:restore, to overwrite a database that has data unless told --yes", async () => {
    const existing = await freshDatabase(serverUrl);
    cleanups.push(() => existing.drop());
    const file = path.join(workDir, "refused.dump");
    await backup({ kind: "postgres", url: (existing.db.target as { url: string }).url }, file);
    const result = spawnSync(process.execPath, ["--import", "tsx", "server/db/backup.cli.ts", "restore", file], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: (existing.db.target as { url: string }).url, NODE_ENV: "development" },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("La base de destino ya tiene datos: agregue --yes para reemplazarlos");
  }, 60_000);
});

describe("backups of the embedded database (a copy of its folder under the owner's lock)", () => {
  it("refuses while a process has the folder open, copies it once closed, and the copy restores into a new folder", async () => {
    const dataDir = path.join(workDir, "pglite-source");
    const db = await openDatabase({ kind: "pglite", dataDir, port: await freePort() }, { role: "portal" });
    await insertUser(db.prisma, { ...operator, roleType: 2 });
    const file = path.join(workDir, "pglite.tar.gz");
    await expect(backup({ kind: "pglite", dataDir }, file)).rejects.toThrow(/está abierta por otro proceso.*Detenga el portal/);
    await db.close();

    await backup({ kind: "pglite", dataDir }, file);
    const restoredDir = path.join(workDir, "pglite-restored");
    await restore({ kind: "pglite", dataDir: restoredDir }, file);
    await expect(restore({ kind: "pglite", dataDir: restoredDir }, file)).rejects.toThrow(/ya tiene una base: agregue --yes/);
    const restored = await openDatabase({ kind: "pglite", dataDir: restoredDir, port: await freePort() }, { role: "portal" });
    try {
      expect(await logsIn(restored, operator)).toBe(200);
    } finally {
      await restored.close();
    }
  }, 90_000);
});
