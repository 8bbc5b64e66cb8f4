import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { applyMigrations, migrationsDir } from "../../server/db/migrate.ts";
import { emptyDatabase, type EmptyDatabase } from "../helpers/fresh-database.ts";

// Migrations never run twice at once on PostgreSQL (issue "Ready for production", Compose): processes that migrate the
// same empty database together take turns on an advisory lock, so exactly one applies each migration and none fails.

// The machine's PostgreSQL unless TEST_DATABASE_URL names another (as the stack and backup tests do).
const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
let empty: EmptyDatabase | undefined;
const handles: Database[] = [];

describe("migrations on PostgreSQL", () => {
  beforeAll(async () => {
    empty = await emptyDatabase(serverUrl, "pp_test_migrate_lock");
    for (let i = 0; i < 3; i++) handles.push(await openDatabase({ kind: "postgres", url: empty.url }));
  });
  afterAll(async () => {
    await Promise.all(handles.map((db) => db.close()));
    await empty?.drop();
  });

  it("three processes migrating one empty database at once apply every migration exactly once, without errors", async () => {
    const results = await Promise.all(handles.map((db) => applyMigrations(db)));
    const shipped = readdirSync(migrationsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(results.flat().sort()).toEqual(shipped);
    const rows = await handles[0]!.prisma.$queryRaw<Array<{ migration_name: string }>>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`;
    expect(rows.map((row) => row.migration_name)).toEqual(shipped);
  });

  it("no process keeps a migration lock once migrating is over (a command could not migrate while the portal runs)", async () => {
    await applyMigrations(handles[0]!);
    const held = await handles[1]!.prisma.$queryRaw<Array<{ objid: string }>>`
      SELECT objid::text FROM pg_locks
      WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    expect(held).toEqual([]);
  });
});
