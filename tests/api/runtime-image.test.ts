import { spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { folderBytes, pruneNodeModules } from "../../scripts/prune-runtime.mjs";
import { emptyDatabase, type EmptyDatabase } from "../helpers/fresh-database.ts";
import { freePort } from "../helpers/ports.ts";
import { startUntilAnswering } from "../helpers/processes.ts";

// The runtime image's node_modules as the Dockerfile makes it (issue 34: it carried 448 MB): `npm ci --omit=dev
// --ignore-scripts` in an empty folder, then scripts/prune-runtime.mjs keeps only what the bundles load. Here that
// folder is rebuilt outside Docker (npm's cache, as after `npm ci`), measured, and the bundles run on it alone: the
// migration, the first admin, the portal (ready, a login, the API docs, the terms PDF) and the mocks.

const repo = path.resolve(import.meta.dirname, "../..");
const appDir = mkdtempSync(path.join(tmpdir(), "pp-runtime-"));
const serverUrl = process.env.TEST_DATABASE_URL;
const budgetMb = 250;
let database: EmptyDatabase | undefined;
const children: ChildProcess[] = [];
let env: NodeJS.ProcessEnv;
let pruned: ReturnType<typeof pruneNodeModules>;

function run(file: string, args: string[] = []) {
  const result = spawnSync(process.execPath, [file, ...args], { cwd: appDir, env, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function startBundle(file: string, extraEnv: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  return startUntilAnswering({ file, cwd: appDir, env: { ...env, ...extraEnv }, url, nodeArgs: ["--enable-source-maps"] }, children);
}

beforeAll(async () => {
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(path.join(repo, file), path.join(appDir, file));
  const install = spawnSync("npm", ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: appDir,
    encoding: "utf8",
  });
  if (install.status !== 0) throw new Error(`npm ci --omit=dev falló:\n${install.stderr}`);
  const { packages } = await buildServer(path.join(appDir, "dist"));
  pruned = pruneNodeModules(appDir, packages);
  symlinkSync(path.join(repo, "prisma"), path.join(appDir, "prisma"), "dir");
  mkdirSync(path.join(appDir, "var"));
  env = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORTAL_DEMO: "true",
    JWT_SECRET: randomBytes(32).toString("base64"),
    LOG_LEVEL: "warn",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(await freePort()),
    // No built web app in this folder: the API alone.
    WEB_DIST_DIR: path.join(appDir, "dist/web"),
  };
  if (serverUrl) {
    database = await emptyDatabase(serverUrl, "pp_test_runtime");
    env.DATABASE_URL = database.url;
  } else {
    env.PGLITE_DIR = path.join(appDir, "var/pglite");
    env.PGLITE_PORT = String(await freePort());
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
  await database?.drop();
  rmSync(appDir, { recursive: true, force: true });
});

describe("the runtime image's node_modules (npm ci --omit=dev, then scripts/prune-runtime.mjs)", () => {
  it(`keeps at most ${budgetMb} MB: no Prisma CLI, TypeScript or web packages, only PostgreSQL's query compiler`, () => {
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    console.log(`node_modules del runtime: ${mb(pruned.before)} MB → ${mb(pruned.after)} MB (${pruned.kept.length} paquetes)`);
    expect(mb(folderBytes(path.join(appDir, "node_modules")))).toBeLessThanOrEqual(budgetMb);
    for (const gone of ["prisma", "typescript", "@prisma/studio-core", "react", "react-dom", "@tanstack/react-query", "vite"]) {
      expect(existsSync(path.join(appDir, "node_modules", gone)), gone).toBe(false);
    }
    expect(existsSync(path.join(appDir, "node_modules/@prisma/client/runtime/query_compiler_fast_bg.postgresql.mjs"))).toBe(true);
    expect(existsSync(path.join(appDir, "node_modules/@prisma/client/runtime/query_compiler_fast_bg.mysql.mjs"))).toBe(false);
  });

  it("runs the migration and the first admin's creation on it", () => {
    const migrated = run("dist/cli/migrate.js");
    expect(migrated.status, migrated.output).toBe(0);
    const created = run("dist/cli/user-create.js", [
      "--rut",
      "9.876.543-3",
      "--email",
      "operador@clinica.cl",
      "--role",
      "0",
      "--password",
      "Operador2026",
    ]);
    expect(created.status, created.output).toBe(0);
  }, 120_000);

  it("runs the portal on it: ready, a login, the API docs (swagger-ui-dist, found by path) and the terms PDF (pdf-lib)", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await startBundle("dist/server/main.js", { HOST: "127.0.0.1", PORT: String(port), MIGRATE_ON_START: "false" }, `${base}/readyz`);
    const login = await fetch(`${base}/api/rcr/v1/auth/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut: "9876543-3", password: "Operador2026" }),
    });
    expect(login.status).toBe(200);
    const docs = await fetch(`${base}/api/docs`);
    expect(docs.status).toBe(200);
    const swaggerScript = /src="([^"]*swagger-ui-bundle[^"]*)"/.exec(await docs.text())?.[1];
    expect(swaggerScript).toBeDefined();
    expect((await fetch(`${base}${swaggerScript!}`)).status).toBe(200);
    const terms = await fetch(`${base}/api/rcr/v1/term-conditions/document/maitenes/terminos-condiciones.pdf`);
    expect(terms.status).toBe(200);
    expect(
      Buffer.from(await terms.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  }, 90_000);

  it("runs the mocks image's entry on it (the same runtime stage)", async () => {
    const port = await freePort();
    await startBundle(
      "dist/mocks/start.js",
      { MOCKS_HOST: "127.0.0.1", MOCKS_HTTP_PORT: String(port), MOCKS_SMTP_PORT: String(await freePort()) },
      `http://127.0.0.1:${port}/mail`,
    );
  }, 60_000);
});
