import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { applyMigrations } from "../../server/db/migrate.ts";
import { seedDemoData } from "../../server/db/seed.ts";

/**
 * Migrating a new database costs each test file ≈ 2 s of CPU (a fresh PGlite runs initdb, then Prisma's engine applies
 * every migration) and seeding the demo accounts ≈ 1 s more (argon2). The test run does both once, in vitest's
 * globalSetup, and every file copies the result: PGlite loads a dump of the data directory, PostgreSQL does
 * `CREATE DATABASE … TEMPLATE`. Where no template was made (the browser tests' server, the bench) freshDatabase()
 * migrates as before.
 */
export type DatabaseTemplates =
  { kind: "pglite"; migrated: string; seeded: string } | { kind: "postgresql"; serverUrl: string; migrated: string; seeded: string };

/** How globalSetup hands the templates to the test workers (they inherit its environment). */
export const templatesVariable = "PP_TEST_DATABASE_TEMPLATES";

export function templatesFromEnv(): DatabaseTemplates | undefined {
  const value = process.env[templatesVariable];
  return value ? (JSON.parse(value) as DatabaseTemplates) : undefined;
}

/** Makes the two templates (migrated; migrated and seeded with the demo data) on the server of `serverUrl`, or as PGlite dumps in `dir`. */
export async function makeTemplates(
  serverUrl: string | undefined,
  dir: string,
): Promise<{ templates: DatabaseTemplates; remove(): Promise<void> }> {
  const run = `${Date.now()}_${randomBytes(3).toString("hex")}`;
  if (!serverUrl) {
    mkdirSync(dir, { recursive: true });
    const files = { migrated: path.join(dir, `pglite-migrated-${run}.tar`), seeded: path.join(dir, `pglite-seeded-${run}.tar`) };
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      await applyMigrations(db);
      writeFileSync(files.migrated, await dump(db));
      await seedDemoData(db.prisma, { onlyWhenEmpty: false });
      writeFileSync(files.seeded, await dump(db));
    } finally {
      await db.close();
    }
    return {
      templates: { kind: "pglite", ...files },
      async remove() {
        rmSync(files.migrated, { force: true });
        rmSync(files.seeded, { force: true });
      },
    };
  }
  const names = { migrated: `pp_template_${run}_migrated`, seeded: `pp_template_${run}_seeded` };
  const migrated = await createDatabase(serverUrl, names.migrated);
  const db = await openDatabase({ kind: "postgres", url: migrated });
  try {
    await applyMigrations(db);
  } finally {
    await db.close();
  }
  const seeded = await openDatabase({ kind: "postgres", url: await copyDatabase(serverUrl, names.migrated, names.seeded) });
  try {
    await seedDemoData(seeded.prisma, { onlyWhenEmpty: false });
  } finally {
    await seeded.close();
  }
  return {
    templates: { kind: "postgresql", serverUrl, ...names },
    async remove() {
      await withAdmin(serverUrl, async (admin) => {
        for (const name of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      });
    },
  };
}

async function dump(db: Database): Promise<Uint8Array> {
  if (!db.dumpDataDir) throw new Error("Only an in-memory PGlite can be dumped");
  return new Uint8Array(await (await db.dumpDataDir()).arrayBuffer());
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  return databaseUrl(serverUrl, name);
}

/**
 * CREATE DATABASE `name` as a copy of `template`. PostgreSQL refuses while anyone is connected to the template, and the
 * connections of the pool that just made it take a moment to leave: retry on that answer for a few seconds.
 */
export async function copyDatabase(serverUrl: string, template: string, name: string): Promise<string> {
  await withAdmin(serverUrl, async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 100) throw error; // 55006: template in use
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  return databaseUrl(serverUrl, name);
}
