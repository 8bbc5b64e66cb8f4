import { spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { emptyDatabase, type EmptyDatabase } from "../helpers/fresh-database.ts";
import { freePort } from "../helpers/ports.ts";
import { startUntilAnswering } from "../helpers/processes.ts";

// The production image runs the compiled bundles with plain `node` (no TypeScript loader): `npm run build:server`
// writes dist/server/main.js, dist/cli/*.js and dist/mocks/start.js. Here they are built into a temporary application
// folder laid out like the image (dist/ beside prisma/ and node_modules/) and run against a throw-away PostgreSQL
// database (TEST_DATABASE_URL, as in CI) or, without it, an embedded PGlite folder.

const repo = path.resolve(import.meta.dirname, "../..");
const appDir = mkdtempSync(path.join(tmpdir(), "pp-bundle-"));
const serverUrl = process.env.TEST_DATABASE_URL;
let database: EmptyDatabase | undefined;
const children: ChildProcess[] = [];
let env: NodeJS.ProcessEnv;
let bundledPackages: string[];

/** Runs a compiled command to its end with plain node. */
function runBundle(file: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [file, ...args], { cwd: appDir, env: { ...env, ...extraEnv }, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Starts a compiled server with plain node and waits until `url` answers 200. */
function startBundle(file: string, extraEnv: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  return startUntilAnswering({ file, cwd: appDir, env: { ...env, ...extraEnv }, url }, children);
}

beforeAll(async () => {
  ({ packages: bundledPackages } = await buildServer(path.join(appDir, "dist")));
  symlinkSync(path.join(repo, "node_modules"), path.join(appDir, "node_modules"), "dir");
  symlinkSync(path.join(repo, "prisma"), path.join(appDir, "prisma"), "dir");
  env = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    // The simulators' defaults below: production refuses them unless this says it is a demo (production-start.test.ts).
    PORTAL_DEMO: "true",
    JWT_SECRET: randomBytes(32).toString("base64"),
    LOG_LEVEL: "warn",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(await freePort()),
  };
  if (serverUrl) {
    database = await emptyDatabase(serverUrl, "pp_test_bundle");
    env.DATABASE_URL = database.url;
  } else {
    env.PGLITE_DIR = path.join(appDir, "var/pglite");
    env.PGLITE_PORT = String(await freePort());
  }
});

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
  await database?.drop();
  rmSync(appDir, { recursive: true, force: true });
});

describe("compiled server and commands (plain node, no TypeScript loader)", () => {
  it("the bundles import only production dependencies (the image installs nothing else)", () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { dependencies: object };
    expect(bundledPackages).toContain("fastify");
    expect(bundledPackages.filter((name) => !(name in dependencies))).toEqual([]);
  });

  it("dist/cli/migrate.js migrates an empty database, and a second run finds it up to date", () => {
    const first = runBundle("dist/cli/migrate.js");
    expect(first.output).toMatch(/^Migraciones aplicadas: \d+_init, /);
    expect(first.status).toBe(0);
    const second = runBundle("dist/cli/migrate.js");
    expect(second.output.trim()).toBe("La base de datos está al día.");
    expect(second.status).toBe(0);
  });

  it("dist/cli/user-create.js creates the first admin; dist/cli/seed.js refuses demo accounts in production", () => {
    const created = runBundle("dist/cli/user-create.js", [
      "--rut",
      "9.876.543-3",
      "--email",
      "operador@clinica.cl",
      "--role",
      "0",
      "--password",
      "Operador2026",
    ]);
    expect(created.output).toContain("Cuenta creada: Rut 9.876.543-3, Administrador (roleType 0)");
    expect(created.status).toBe(0);
    const seed = runBundle("dist/cli/seed.js");
    expect(seed.status).toBe(1);
    expect(seed.output).toContain("No se cargan cuentas de demostración");
  });

  it("dist/server/main.js serves /healthz and /readyz and logs the created admin in", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // /readyz answers 200 once the process is warm (server/ops/warm-up.ts); /healthz from the first moment.
    await startBundle("dist/server/main.js", { HOST: "127.0.0.1", PORT: String(port), MIGRATE_ON_START: "false" }, `${base}/readyz`);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ok", checks: { database: "ok", migrations: "ok" } });
    const login = await fetch(`${base}/api/rcr/v1/auth/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut: "9876543-3", password: "Operador2026" }),
    });
    expect(login.status).toBe(200);
    const { payload } = (await login.json()) as { payload: { accessToken: string; user: { roleType: number } } };
    expect(payload.accessToken).toMatch(/^ey/);
    expect(payload.user.roleType).toBe(0);
  }, 90_000);

  it("dist/mocks/start.js starts the mock providers and the mail catcher", async () => {
    const port = await freePort();
    const mocks = await startBundle(
      "dist/mocks/start.js",
      { MOCKS_HOST: "127.0.0.1", MOCKS_HTTP_PORT: String(port), MOCKS_SMTP_PORT: String(await freePort()) },
      `http://127.0.0.1:${port}/mail`,
    );
    expect(mocks.exitCode).toBeNull();
  });
});
