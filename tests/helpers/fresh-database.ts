import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { applyMigrations } from "../../server/db/migrate.ts";
import { seedDemoData } from "../../server/db/seed.ts";
import { copyDatabase, databaseUrl, templatesFromEnv } from "./database-templates.ts";

export interface FreshDatabase {
  db: Database;
  kind: "postgresql" | "pglite";
  drop(): Promise<void>;
}

/**
 * A new, migrated, empty database for one test file (or benchmark): in-memory PGlite by default, or a throw-away
 * database on the PostgreSQL server named by `serverUrl` (TEST_DATABASE_URL in CI), dropped again by `drop()`.
 * `seeded`: with the demo data too. Under vitest it is a copy of the run's template (see database-templates.ts).
 */
export async function freshDatabase(
  serverUrl = process.env.TEST_DATABASE_URL,
  namePrefix = "pp_test",
  options: { seeded?: boolean } = {},
): Promise<FreshDatabase> {
  const templates = templatesFromEnv();
  const which = options.seeded ? "seeded" : "migrated";
  if (!serverUrl) {
    if (templates?.kind === "pglite") {
      const db = await openDatabase({ kind: "pglite", dataDir: null }, { loadDataDir: new Blob([readFileSync(templates[which])]) });
      return { db, kind: "pglite", drop: () => db.close() };
    }
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    await migrateAndSeed(db, options.seeded);
    return { db, kind: "pglite", drop: () => db.close() };
  }
  const fromTemplate = templates?.kind === "postgresql" && templates.serverUrl === serverUrl;
  const empty = await emptyDatabase(serverUrl, namePrefix, fromTemplate ? templates[which] : undefined);
  const db = await openDatabase({ kind: "postgres", url: empty.url });
  if (!fromTemplate) await migrateAndSeed(db, options.seeded);
  return {
    db,
    kind: "postgresql",
    async drop() {
      await db.close();
      await empty.drop();
    },
  };
}

async function migrateAndSeed(db: Database, seeded = false): Promise<void> {
  await applyMigrations(db);
  if (seeded) await seedDemoData(db.prisma, { onlyWhenEmpty: false });
}

export interface EmptyDatabase {
  name: string;
  url: string;
  /** Drops it (see dropDatabase): close what uses it first. */
  drop(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server of `serverUrl`: with nothing in it (no migrations), for a test to fill, or a
 * copy of `template`.
 */
export async function emptyDatabase(serverUrl: string, namePrefix = "pp_test", template?: string): Promise<EmptyDatabase> {
  const name = `${namePrefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  if (template) await copyDatabase(serverUrl, template, name);
  else {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
  }
  return { name, url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
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
