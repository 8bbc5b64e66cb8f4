import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase } from "../helpers/fresh-database.ts";
import { freePort, listening } from "../helpers/ports.ts";
import { watchOutput } from "../helpers/processes.ts";
import { portalNodeArgs, portalProcessEnv } from "../../scripts/portal-process.mjs";

// `npm run stack` as an operator runs it — the machine's PostgreSQL and Redis, two portal processes, the round-robin
// proxy — and what must hold across instances: tokens, the login limit and download links work on any instance, and
// the proxy keeps answering when one instance dies under load.

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const databaseName = `pp_test_stack_${Date.now()}_${randomBytes(3).toString("hex")}`;
const keyPrefix = `pp-test-stack:${randomBytes(4).toString("hex")}:`;
const patient = { rut: "12.345.678-5", password: "Paciente2026" };

let stack: ChildProcess;
let output: ReturnType<typeof watchOutput>;
const ports = { proxy: 0, a: 0, b: 0, mocks: 0, smtp: 0 };
const pids: Record<string, number> = {};
const at = (port: number, path: string) => `http://127.0.0.1:${port}/api/rcr/v1${path}`;
const host = { host: "clinicasur.localhost" };

beforeAll(async () => {
  for (const key of Object.keys(ports) as Array<keyof typeof ports>) ports[key] = await freePort();
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${databaseName}`;
  stack = spawn(process.execPath, ["scripts/stack.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      STACK_PORT: String(ports.proxy),
      STACK_PORTAL_PORTS: `${ports.a},${ports.b}`,
      MOCKS_HTTP_PORT: String(ports.mocks),
      MOCKS_SMTP_PORT: String(ports.smtp),
      SKIP_WEB_BUILD: "true",
      JWT_SECRET: randomBytes(32).toString("base64url"),
      LOGIN_MAX_FAILURES_PER_PAIR: "3",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  output = watchOutput(stack, "stack: listo", "la pila");
  await output.ready;
  for (const match of output.text.matchAll(/stack: (portal-\d|mocks) pid=(\d+)/g)) pids[match[1]!] = Number(match[2]);
}, 180_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack.once("exit", resolve));
    stack.kill("SIGTERM");
    await exited;
  }
  await dropDatabase(serverUrl, databaseName);
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}, 60_000);

async function logIn(port: number, who = patient) {
  const response = await fetch(at(port, "/auth/new-login"), {
    method: "POST",
    headers: { "content-type": "application/json", ...host },
    body: JSON.stringify(who),
  });
  return { status: response.status, body: (await response.json()) as { payload?: { accessToken: string }; message?: string } };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, ...host });

describe("npm run stack: two portal instances behind the proxy", () => {
  it("serves the portal through the proxy, and hides /metrics there as the production proxy does", async () => {
    expect((await fetch(`http://127.0.0.1:${ports.proxy}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.proxy}/metrics`)).status).toBe(404);
    expect(pids["portal-1"]).toBeGreaterThan(0);
    expect(pids["portal-2"]).toBeGreaterThan(0);
  });

  it("starts each instance with the environment and node options of scripts/portal-process.mjs (two malloc arenas, a fixed malloc trim threshold, no memory reducer)", () => {
    for (const name of ["portal-1", "portal-2"]) {
      const environment = readFileSync(`/proc/${pids[name]}/environ`, "utf8").split("\0");
      for (const [variable, value] of Object.entries(portalProcessEnv)) expect(environment, name).toContain(`${variable}=${value}`);
      const commandLine = readFileSync(`/proc/${pids[name]}/cmdline`, "utf8").split("\0");
      expect(commandLine.slice(1, 1 + portalNodeArgs.length), name).toEqual(portalNodeArgs);
    }
  });

  it("runs the compiled bundles the image runs (dist/server/main.js, dist/mocks/start.js), with no TypeScript loader", () => {
    for (const [name, bundle] of [
      ["portal-1", "dist/server/main.js"],
      ["portal-2", "dist/server/main.js"],
      ["mocks", "dist/mocks/start.js"],
    ] as const) {
      const commandLine = readFileSync(`/proc/${pids[name]}/cmdline`, "utf8").split("\0").filter(Boolean);
      expect(commandLine.at(-1), name).toBe(bundle);
      expect(commandLine, name).not.toContain("tsx");
    }
  });

  it("accepts on one instance the token issued by the other", async () => {
    const login = await logIn(ports.a);
    expect(login.status).toBe(200);
    const me = await fetch(at(ports.b, "/auth/me"), { headers: bearer(login.body.payload!.accessToken) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { payload: { rut: string } }).payload.rut).toBe(patient.rut);
  });

  it("counts failed logins spread over both instances against one shared limit", async () => {
    const wrong = { rut: "16.789.012-1", password: "Incorrecta1" };
    const statuses = [];
    for (const port of [ports.a, ports.b, ports.a, ports.b]) statuses.push((await logIn(port, wrong)).status);
    // Three failures over both instances reach the limit of 3 per (RUT, address), so the fourth (on instance b, which saw
    // only one) is refused: a limit held in one process would have checked it.
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await logIn(ports.a, { rut: wrong.rut, password: "Paciente2026" });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Demasiados intentos fallidos\. Espere (un minuto|\d+ minutos) e intente nuevamente\.$/);
  });

  it("serves on one instance the download link made by the other", async () => {
    const token = (await logIn(ports.a)).body.payload!.accessToken;
    const bills = (await (await fetch(at(ports.a, "/files/accounts/12345678-5?limit=100"), { headers: bearer(token) })).json()) as {
      accounts: Array<{ id: number; filesCount: number }>;
    };
    const withFile = bills.accounts.find((bill) => bill.filesCount > 0)!;
    const files = (await (await fetch(at(ports.a, `/files/list/${withFile.id}`), { headers: bearer(token) })).json()) as {
      getFileList: Array<{ path: string }>;
    };
    const link = (await (await fetch(at(ports.a, `/files/${files.getFileList[0]!.path}`), { headers: bearer(token) })).json()) as {
      url: string;
    };
    const download = await fetch(`http://127.0.0.1:${ports.b}${link.url}`, { headers: host });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("keeps answering through the proxy when one instance is killed in the middle of a load", async () => {
    const token = (await logIn(ports.proxy)).body.payload!.accessToken;
    const statuses: number[] = [];
    // What any answer other than 200 was, to tell a failure's cause from its report: the call's place, before or after
    // the kill, and the body.
    const refused: string[] = [];
    const call = async () => {
      const place = `${statuses.length}${killed ? " (after the kill)" : ""}`;
      try {
        const response = await fetch(`http://127.0.0.1:${ports.proxy}/api/rcr/v1/auth/validate-token`, { headers: bearer(token) });
        if (response.status !== 200) refused.push(`${place}: ${response.status} ${await response.text()}`);
        return response.status;
      } catch (error) {
        refused.push(`${place}: ${String(error)}`);
        return 0;
      }
    };
    let killed = false;
    const worker = async () => {
      for (let i = 0; i < 60; i++) {
        if (!killed && statuses.length >= 100) {
          killed = true;
          process.kill(pids["portal-1"]!, "SIGKILL");
        }
        statuses.push(await call());
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(killed).toBe(true);
    expect(statuses).toHaveLength(480);
    expect(refused).toEqual([]);
    expect(output.text).toMatch(/portal-1 terminó \(SIGKILL\)/);
  });

  it("restarts the killed instance, which answers /readyz again on its port (issue 24: rejoins within 15 s; 30 s allowed on a shared machine)", async () => {
    const deadline = Date.now() + 30_000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      ready = (await fetch(`http://127.0.0.1:${ports.a}/readyz`).catch(() => null))?.status === 200;
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(ready).toBe(true);
    expect(output.text).toMatch(/portal-1 terminó \(SIGKILL\); se reinicia/);
  }, 40_000);

  it("stops everything it started on SIGTERM: once the command exits, none of its ports answers", async () => {
    const exited = new Promise<number | null>((resolve) => stack.once("exit", (code) => resolve(code)));
    stack.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const port of [ports.proxy, ports.a, ports.b, ports.mocks, ports.smtp]) expect(await listening(port)).toBe(false);
  });
});
