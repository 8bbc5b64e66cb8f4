import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { seedDemoData } from "../../server/db/seed.ts";
import { dropDatabase } from "../helpers/fresh-database.ts";

// Least privilege (issue 34): migrations as the owner role, the replicas as an application role with data rights only.
// On the machine's PostgreSQL (TEST_DATABASE_URL, a superuser as in CI): compose's initdb script makes two throw-away
// roles and a database the first owns; `npm run db:migrate` as the owner with DATABASE_APP_ROLE, then the portal as the
// application role.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const repo = path.resolve(import.meta.dirname, "../..");
const suffix = `${Date.now()}_${randomBytes(3).toString("hex")}`;
const owner = `pp_test_owner_${suffix}`;
const appRole = `pp_test_app_${suffix}`;
const database = `pp_test_roles_${suffix}`;
const password = randomBytes(12).toString("hex");

function urlAs(role: string): string {
  const url = new URL(serverUrl);
  url.username = role;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
}

async function asSuperuser(sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let appDb: Database | undefined;
let app: pg.Client | undefined;

beforeAll(async () => {
  // The roles and the database as compose's db service makes them on a new volume (deploy/postgres/initdb/10-roles.sh).
  const server = new URL(serverUrl);
  const initdb = spawnSync("sh", [path.join(repo, "deploy/postgres/initdb/10-roles.sh")], {
    env: {
      PATH: process.env.PATH,
      PGHOST: server.hostname,
      PGPORT: server.port || "5432",
      POSTGRES_USER: decodeURIComponent(server.username) || "postgres",
      POSTGRES_OWNER_PASSWORD: password,
      POSTGRES_APP_PASSWORD: password,
      PORTAL_DB: database,
      PORTAL_DB_OWNER: owner,
      PORTAL_DB_APP: appRole,
    },
    encoding: "utf8",
  });
  expect(initdb.status, `${initdb.stdout}${initdb.stderr}`).toBe(0);
  const migrated = spawnSync(path.join(repo, "node_modules/.bin/tsx"), ["server/db/migrate.cli.ts", "apply"], {
    cwd: repo,
    env: { PATH: process.env.PATH, NODE_ENV: "test", DATABASE_URL: urlAs(owner), DATABASE_APP_ROLE: appRole },
    encoding: "utf8",
  });
  expect(migrated.status, `${migrated.stdout}${migrated.stderr}`).toBe(0);
  expect(migrated.stdout).toContain(`Permisos del rol ${appRole} al día`);
  appDb = await openDatabase({ kind: "postgres", url: urlAs(appRole) });
  app = new pg.Client({ connectionString: urlAs(appRole) });
  await app.connect();
}, 60_000);

afterAll(async () => {
  await app?.end();
  await appDb?.close();
  await dropDatabase(serverUrl, database);
  await asSuperuser(`DROP ROLE IF EXISTS "${appRole}"`);
  await asSuperuser(`DROP ROLE IF EXISTS "${owner}"`);
});

/** The error PostgreSQL gives the application role for `sql`. */
async function refusal(sql: string): Promise<{ code?: string; message: string }> {
  try {
    await app!.query(sql);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error(`PostgreSQL aceptó: ${sql}`);
}

describe("the portal's PostgreSQL roles", () => {
  it("the application role runs the portal: demo data written, a patient logs in and the login is audited", async () => {
    await seedDemoData(appDb!.prisma, { onlyWhenEmpty: false });
    const portal = await buildApp({
      config: loadConfig({ NODE_ENV: "test" }, { LOG_LEVEL: "silent", PAYMENT_SWEEP_SECONDS: "0" }),
      db: appDb!,
      logger: false,
    });
    try {
      const login = await portal.inject({
        method: "POST",
        url: "/api/rcr/v1/auth/new-login",
        payload: { rut: "12.345.678-5", password: "Paciente2026" },
      });
      expect(login.statusCode).toBe(200);
      const ready = await portal.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(200);
    } finally {
      await portal.close();
    }
    const { rows } = await app!.query<{ count: string }>(`SELECT count(*) FROM "AuditEvent"`);
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
  });

  it("refuses it UPDATE and DELETE of an audit row by privilege (before any trigger), and TRUNCATE", async () => {
    for (const sql of [`UPDATE "AuditEvent" SET "action" = 'borrado'`, `DELETE FROM "AuditEvent"`, `TRUNCATE "AuditEvent"`]) {
      const error = await refusal(sql);
      expect(error.code, sql).toBe("42501");
      expect(error.message, sql).toMatch(/permission denied for table AuditEvent/);
    }
  });

  it("refuses it ALTER TABLE … DISABLE TRIGGER, dropping the trigger or its function, and any new table", async () => {
    for (const sql of [
      `ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`,
      `ALTER TABLE "AuditEvent" DISABLE TRIGGER ALL`,
      `DROP TRIGGER "AuditEvent_append_only" ON "AuditEvent"`,
      `DROP FUNCTION portal_audit_append_only()`,
      `ALTER TABLE "User" ADD COLUMN "x" int`,
    ]) {
      const error = await refusal(sql);
      expect(error.code, sql).toBe("42501");
      expect(error.message, sql).toMatch(/must be owner/);
    }
    expect((await refusal(`CREATE TABLE "Intruso" (id int)`)).message).toMatch(/permission denied for schema public/);
    expect((await refusal(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ('x', 'x', 'x')`)).code).toBe("42501");
  });

  it("lets no other role of the server connect to the portal's database", async () => {
    const stranger = `pp_test_stranger_${suffix}`;
    await asSuperuser(`CREATE ROLE "${stranger}" LOGIN PASSWORD '${password}'`);
    try {
      const client = new pg.Client({ connectionString: urlAs(stranger) });
      await expect(client.connect()).rejects.toThrow(/permission denied for database/);
    } finally {
      await asSuperuser(`DROP ROLE "${stranger}"`);
    }
  });

  it("the owner role (migrations) still has the trigger refusing it, so even it cannot edit the trail by accident", async () => {
    const client = new pg.Client({ connectionString: urlAs(owner) });
    await client.connect();
    try {
      await expect(client.query(`DELETE FROM "AuditEvent"`)).rejects.toThrow(/solo admite agregar/);
    } finally {
      await client.end();
    }
  });
});
