import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { lockFileName, systemProbe, type LockOwner } from "../../server/db/owner-lock.ts";
import { freePort } from "../helpers/ports.ts";

// Issue 8, at process level: a real portal (server/main.ts) owns an embedded PGlite folder while real operator
// commands (npm run user:create / db:seed / db:migrate) run beside it as separate processes.

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "pp-owner-"));
const lockFile = path.join(dataDir, lockFileName);
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PGLITE_DIR: dataDir,
    PGLITE_PORT: "0",
    LOG_LEVEL: "silent",
    SEED_DEMO: "false",
    PGLITE_OWNER_WAIT_SECONDS: "60",
  };
  delete env.DATABASE_URL;
  return env;
};

function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  return child;
}

function run(script: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) {
  const child = spawnTs(script, args, { ...baseEnv(), ...extraEnv });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

const userCreate = (rut: string, email: string) =>
  run("server/features/users/user-create.cli.ts", ["--rut", rut, "--email", email, "--role", "0", "--password", "Operador2026"]);

function readLock(): LockOwner | null {
  return existsSync(lockFile) ? (JSON.parse(readFileSync(lockFile, "utf8")) as LockOwner) : null;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 120_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (value === undefined) throw new Error(`Timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 200 },
  );
}

interface Portal {
  child: ChildProcess;
  baseUrl: string;
  dbPort: number;
  output: () => string;
}

async function startPortal(): Promise<Portal> {
  const port = await freePort();
  const child = spawnTs("server/main.ts", [], { ...baseEnv(), HOST: "127.0.0.1", PORT: String(port) });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor("the portal to answer", async () => {
    if (child.exitCode !== null) throw new Error(`The portal exited (${child.exitCode}): ${output}`);
    // /readyz, as a proxy waits: before it, a login can meet the overload guard's 503 while the embedded database starts.
    return (await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok ? true : undefined;
  });
  const lock = readLock();
  expect(lock).toMatchObject({ pid: child.pid, role: "portal" });
  return { child, baseUrl, dbPort: lock!.port!, output: () => output };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

async function adminLogin(portal: Portal, rut: string) {
  const response = await fetch(`${portal.baseUrl}/api/rcr/v1/auth/admin-login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rut, password: "Operador2026" }),
  });
  return response.status;
}

/** psql's way in: a plain PostgreSQL client on the owner's loopback port. */
async function sql<T>(portal: Portal, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${portal.dbPort}/postgres` });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}
const countUsers = async (portal: Portal) => (await sql<{ n: number }>(portal, 'SELECT count(*)::int AS n FROM "User"'))[0]!.n;

describe("embedded database with one owner, operator commands beside the running portal", { timeout: 180_000 }, () => {
  let portal: Portal;

  it("refuses a command whose folder is held by a live process that does not serve it: exit 1, Spanish advice, nothing written", async () => {
    const squatter = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
    started.push(squatter);
    const closedPort = await freePort();
    const owner: LockOwner = {
      pid: squatter.pid!,
      startTime: systemProbe.startTime(squatter.pid!),
      role: "portal",
      port: closedPort,
      since: new Date().toISOString(),
    };
    writeFileSync(lockFile, JSON.stringify(owner));
    const result = await run(
      "server/features/users/user-create.cli.ts",
      ["--rut", "9.876.543-3", "--email", "operador@clinica.cl", "--role", "0", "--password", "Operador2026"],
      { PGLITE_OWNER_WAIT_SECONDS: "1" },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No se guardó ningún cambio. Detenga el portal`);
    expect(result.stderr).toContain("defina DATABASE_URL");
    expect(result.stdout).not.toContain("Cuenta creada");
    // Nothing but the lock: the command never opened the folder.
    expect(readdirSync(dataDir)).toEqual([lockFileName]);
    expect(readLock()).toEqual(owner);
    await stop(squatter, "SIGKILL");
  });

  it("starts the portal on the folder, taking over the lock its dead holder left", async () => {
    portal = await startPortal();
    expect(readLock()!.pid).toBe(portal.child.pid);
  });

  it("user:create beside the running portal makes an account that logs in at once", async () => {
    const result = await userCreate("9.876.543-3", "operador@clinica.cl");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Cuenta creada: Rut 9.876.543-3");
    expect(await adminLogin(portal, "9876543-3")).toBe(200);
  });

  it("db:seed twice beside the running portal adds nothing the second time", async () => {
    const seedEnv = { NODE_ENV: "development", SEED_DEMO: "true" };
    const first = await run("server/db/seed.cli.ts", [], seedEnv);
    expect(first.code).toBe(0);
    const afterFirst = await countUsers(portal);
    const clinics = await sql<{ n: number }>(portal, 'SELECT count(*)::int AS n FROM "Clinic"');
    const second = await run("server/db/seed.cli.ts", [], seedEnv);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("(0 cuentas nuevas)");
    expect(await countUsers(portal)).toBe(afterFirst);
    expect(await sql(portal, 'SELECT count(*)::int AS n FROM "Clinic"')).toEqual(clinics);
  });

  it("two commands at once both land", async () => {
    const before = await countUsers(portal);
    const [a, b] = await Promise.all([userCreate("7.654.321-6", "uno@clinica.cl"), userCreate("5.555.555-9", "dos@clinica.cl")]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(await countUsers(portal)).toBe(before + 2);
    expect(await adminLogin(portal, "7654321-6")).toBe(200);
    expect(await adminLogin(portal, "5555555-9")).toBe(200);
  });

  it("a psql session that changes its settings (pg_dump empties search_path) leaves the portal and the commands working", async () => {
    // PGlite is one backend session shared by the portal and every client of its port: a client's SET must end with
    // its own statements, or the portal's next query no longer finds its tables.
    const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${portal.dbPort}/postgres` });
    await client.connect();
    try {
      await client.query("SELECT pg_catalog.set_config('search_path', '', false)");
      await client.query("SET TIME ZONE 'Asia/Tokyo'");
      expect(await adminLogin(portal, "9876543-3")).toBe(200);
      expect(await countUsers(portal)).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    expect(await adminLogin(portal, "9876543-3")).toBe(200);
    const migrate = await run("server/db/migrate.cli.ts", ["apply"]);
    expect(migrate.stdout).toContain("La base de datos está al día.");
  });

  it("db:migrate beside the running portal finds the database up to date", async () => {
    const result = await run("server/db/migrate.cli.ts", ["apply"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("La base de datos está al día.");
  });

  it("after kill -9 of the portal, the folder opens again with every account and the stale lock taken over", async () => {
    const killed = portal.child.pid;
    await stop(portal.child, "SIGKILL");
    expect(readLock()!.pid).toBe(killed);
    portal = await startPortal();
    expect(portal.child.pid).not.toBe(killed);
    for (const rut of ["9876543-3", "7654321-6", "5555555-9"]) expect(await adminLogin(portal, rut)).toBe(200);
  });

  it("a stopped portal gives the folder back: no lock left", async () => {
    await stop(portal.child, "SIGTERM");
    expect(portal.child.exitCode).toBe(0);
    expect(readLock()).toBeNull();
  });
});
