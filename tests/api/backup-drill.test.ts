import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { seedDemoData } from "../../server/db/seed.ts";
import { emptyDatabase, freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// Restore drill of deploy/backup/portal-backup.sh, the script compose's backup service runs (issue 34): copy → an
// empty database → restore → the same rows in every table, the audit trail identical and still append-only, the demo
// patient logs in. Natively, with the machine's PostgreSQL client and server (TEST_DATABASE_URL, as in CI).

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const repo = path.resolve(import.meta.dirname, "../..");
const script = path.join(repo, "deploy/backup/portal-backup.sh");
const backupDir = mkdtempSync(path.join(tmpdir(), "pp-drill-"));
const cleanups: Array<() => Promise<void>> = [];
let source: FreshDatabase;

/** Runs the script as the backup service does, with libpq's variables naming `databaseUrl`. */
function portalBackup(databaseUrl: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const url = new URL(databaseUrl);
  const result = spawnSync("sh", [script, ...args], {
    env: {
      PATH: process.env.PATH,
      TZ: "America/Santiago",
      PGHOST: url.hostname,
      PGPORT: url.port || "5432",
      PGUSER: decodeURIComponent(url.username) || "postgres",
      PGDATABASE: url.pathname.slice(1),
      BACKUP_DIR: backupDir,
      ...extraEnv,
    },
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function logsIn(db: Database, rut: string, password: string): Promise<number> {
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: "test" }, { LOG_LEVEL: "silent", PAYMENT_SWEEP_SECONDS: "0" }),
    db,
    logger: false,
  });
  try {
    return (await app.inject({ method: "POST", url: "/api/rcr/v1/auth/new-login", payload: { rut, password } })).statusCode;
  } finally {
    await app.close();
  }
}

/** Rows per table of the public schema, and a digest of the audit trail in id order. */
async function fingerprint(db: Database) {
  const tables = await db.prisma.$queryRaw<Array<{ name: string }>>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await db.prisma.$queryRawUnsafe<Array<{ count: bigint }>>(`SELECT count(*) AS count FROM "${name}"`);
    counts[name] = Number(row!.count);
  }
  const [audit] = await db.prisma.$queryRaw<Array<{ digest: string | null }>>`
    SELECT md5(string_agg(a::text, '|' ORDER BY a.id)) AS digest FROM "AuditEvent" a`;
  return { counts, audit: audit!.digest };
}

beforeAll(async () => {
  source = await freshDatabase(serverUrl, "pp_test_drill");
  cleanups.push(() => source.drop());
  await seedDemoData(source.db.prisma, { onlyWhenEmpty: false });
  // A few audited events: logins, one of them failed.
  expect(await logsIn(source.db, "12.345.678-5", "Paciente2026")).toBe(200);
  expect(await logsIn(source.db, "12.345.678-5", "equivocada")).toBe(401);
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(backupDir, { recursive: true, force: true });
});

const sourceUrl = () => (source.db.target as { url: string }).url;

describe("restore drill of deploy/backup/portal-backup.sh", () => {
  it("backup → empty database → restore: the same rows in every table, the same audit trail, the demo patient logs in", async () => {
    const copied = portalBackup(sourceUrl(), ["backup"]);
    expect(copied.status, copied.output).toBe(0);
    const dumps = readdirSync(backupDir).filter((name) => name.endsWith(".dump"));
    expect(dumps).toHaveLength(1);
    expect(readdirSync(backupDir).some((name) => name.endsWith(".partial"))).toBe(false);

    const target = await emptyDatabase(serverUrl, "pp_test_drill_target");
    cleanups.push(target.drop);
    const restored = portalBackup(target.url, ["restore", path.join(backupDir, dumps[0]!)]);
    expect(restored.status, restored.output).toBe(0);
    const db = await openDatabase({ kind: "postgres", url: target.url });
    cleanups.push(() => db.close());

    const before = await fingerprint(source.db);
    const after = await fingerprint(db);
    expect(before.counts.AuditEvent).toBeGreaterThan(0);
    expect(after).toEqual(before);
    // The append-only trigger came back after the data.
    await expect(db.prisma.$executeRawUnsafe(`DELETE FROM "AuditEvent"`)).rejects.toThrow(/solo admite agregar/);
    expect(await logsIn(db, "12.345.678-5", "Paciente2026")).toBe(200);
  }, 60_000);

  it("refuses to restore over a database with tables unless --yes, and then replaces it whole", async () => {
    const [dump] = readdirSync(backupDir).filter((name) => name.endsWith(".dump"));
    const other = await freshDatabase(serverUrl, "pp_test_drill_other");
    cleanups.push(() => other.drop());
    await other.db.close();
    const url = (other.db.target as { url: string }).url;
    const refused = portalBackup(url, ["restore", path.join(backupDir, dump!)]);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/ya tiene \d+ tablas: se reemplazan solo con --yes/);
    const replaced = portalBackup(url, ["restore", path.join(backupDir, dump!), "--yes"]);
    expect(replaced.status, replaced.output).toBe(0);
    const db = await openDatabase({ kind: "postgres", url });
    cleanups.push(() => db.close());
    expect((await fingerprint(db)).counts).toEqual((await fingerprint(source.db)).counts);
  }, 60_000);

  it("keeps BACKUP_KEEP_DAYS days (never the newest), and its health check wants a copy younger than 26 hours", () => {
    const day = 24 * 60 * 60;
    const now = Date.now() / 1000;
    const aged = (name: string, daysOld: number) => {
      const file = path.join(backupDir, name);
      writeFileSync(file, "copia antigua");
      utimesSync(file, now - daysOld * day, now - daysOld * day);
    };
    aged("portal-20260101-033000.dump", 30);
    aged("portal-20261101-033000.dump", 20);
    aged("portal-20261120-033000.dump", 5);
    const pruned = portalBackup(sourceUrl(), ["prune"], { BACKUP_KEEP_DAYS: "14" });
    expect(pruned.status, pruned.output).toBe(0);
    const left = readdirSync(backupDir);
    expect(left).not.toContain("portal-20260101-033000.dump");
    expect(left).not.toContain("portal-20261101-033000.dump");
    expect(left).toContain("portal-20261120-033000.dump");
    expect(portalBackup(sourceUrl(), ["check"]).status).toBe(0);

    // Only stale copies left: unhealthy; and prune never deletes the last one.
    for (const name of readdirSync(backupDir)) rmSync(path.join(backupDir, name));
    aged("portal-20261001-033000.dump", 40);
    expect(portalBackup(sourceUrl(), ["check"]).output).toContain("más de 26 horas");
    expect(portalBackup(sourceUrl(), ["check"]).status).toBe(1);
    expect(portalBackup(sourceUrl(), ["prune"], { BACKUP_KEEP_DAYS: "14" }).status).toBe(0);
    expect(readdirSync(backupDir)).toEqual(["portal-20261001-033000.dump"]);
  });

  it("refuses a wrong setting or file with a Spanish message", () => {
    expect(portalBackup(sourceUrl(), ["prune"], { BACKUP_KEEP_DAYS: "dos" }).output).toContain("BACKUP_KEEP_DAYS debe ser un número");
    expect(portalBackup(sourceUrl(), ["daily"], { BACKUP_AT: "3am" }).output).toContain("BACKUP_AT debe ser una hora HH:MM");
    const notADump = path.join(backupDir, "nota.txt");
    writeFileSync(notADump, "no es una copia");
    const refused = portalBackup(sourceUrl(), ["restore", notADump]);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("no es una copia de pg_dump");
  });
});
