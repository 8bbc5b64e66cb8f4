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
  const empty = await emptyDatabase(serverUrl, namePrefix);
  const db = await openDatabase({ kind: "postgres", url: empty.url });
  await applyMigrations(db);
  return {
    db,
    kind: "postgresql",
    async drop() {
      await db.close();
      await empty.drop();
    },
  };
}

export interface EmptyDatabase {
  name: string;
  url: string;
  /** Drops it (see dropDatabase): close what uses it first. */
  drop(): Promise<void>;
}

/** A new database with nothing in it (no migrations) on the PostgreSQL server of `serverUrl`, for a test to fill. */
export async function emptyDatabase(serverUrl: string, namePrefix = "pp_test"): Promise<EmptyDatabase> {
  const name = `${namePrefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropDatabase(serverUrl, name) };
}

/**
 * Drops a test database once the connections this process just closed are gone. A closed pool's connections take a
 * moment to leave the server; DROP … WITH (FORCE) at once would terminate them while they are still ending, and the
 * server's "terminating connection" then reaches a client nobody listens to any more (an unhandled error that fails
 * the whole run). FORCE only after two seconds, for connections something else left open.
 */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 40; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006") throw error; // 55006: still in use
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
