import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { applyMigrations } from "../../server/db/migrate.ts";

export interface FreshDatabase {
  db: Database;
  kind: "postgresql" | "pglite";
  drop(): Promise<void>;
}

/**
 * A new, migrated, empty database for one test file (or benchmark): in-memory PGlite by default, or a throw-away
 * database on the PostgreSQL server named by `serverUrl` (TEST_DATABASE_URL in CI), dropped again by `drop()`.
 */
export async function freshDatabase(serverUrl = process.env.TEST_DATABASE_URL, namePrefix = "pp_test"): Promise<FreshDatabase> {
  if (!serverUrl) {
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    await applyMigrations(db);
    return { db, kind: "pglite", drop: () => db.close() };
  }
  const name = `${namePrefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: "postgres", url: url.toString() });
  await applyMigrations(db);
  return {
    db,
    kind: "postgresql",
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
