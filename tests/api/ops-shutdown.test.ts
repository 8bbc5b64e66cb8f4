import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMocks, type RunningMocks } from "../../mocks/start.ts";
import { freshDatabase } from "../helpers/fresh-database.ts";
import { freePort } from "../helpers/ports.ts";

// Graceful shutdown at process level (issue 15): a real portal (server/main.ts) gets SIGTERM while a request is in
// flight. The request finishes with 200, new connections are refused at once, the process exits 0; a request that
// outlives SHUTDOWN_GRACE_SECONDS does not keep the process alive.

const root = path.resolve(import.meta.dirname, "../..");
const started: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
let mocks: RunningMocks;
/** A laboratory that answers like the mock, but only after `labDelayMs` (or never, when negative). */
let labDelayMs = 1_500;
let labRequestsSeen = 0;
let slowLab: http.Server;
let slowLabUrl: string;

beforeAll(async () => {
  mocks = await startMocks({ httpPort: 0, smtpPort: 0 });
  slowLab = http.createServer((request, response) => {
    labRequestsSeen += 1;
    if (labDelayMs < 0) return; // never answers
    setTimeout(() => {
      const upstream = http.request(`${mocks.httpUrl}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    }, labDelayMs);
  });
  await new Promise<void>((resolve) => slowLab.listen(0, "127.0.0.1", resolve));
  slowLabUrl = `http://127.0.0.1:${(slowLab.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  slowLab.closeAllConnections();
  await new Promise((resolve) => slowLab.close(resolve));
  for (const cleanup of cleanups) await cleanup();
  await mocks.close();
});

/** PostgreSQL (a fresh database on TEST_DATABASE_URL's server) or an embedded folder of its own. */
async function databaseEnv(): Promise<NodeJS.ProcessEnv> {
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshDatabase();
    cleanups.push(fresh.drop);
    return { DATABASE_URL: (fresh.db.target as { url: string }).url };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "pp-shutdown-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { DATABASE_URL: undefined, PGLITE_DIR: dir, PGLITE_PORT: "0" };
}

interface Portal {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  exited: Promise<number | null>;
  output: () => string;
}

async function startPortal(extraEnv: NodeJS.ProcessEnv): Promise<Portal> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL: "warn",
    SEED_DEMO: "true",
    PAYMENT_SWEEP_SECONDS: "0",
    SMTP_PORT: String(mocks.smtpPort),
    LAB_FHIR_BASE_URL: `${slowLabUrl}/fhir`,
    LAB_TIMEOUT_MS: "30000",
    ...(await databaseEnv()),
    ...extraEnv,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`The portal exited (${child.exitCode}): ${output}`);
      // Ready as a proxy sees it: the embedded database's start-up runs on this event loop, and a login sent when
      // /healthz first answers can meet the overload guard's 503 on a loaded machine (CI of 6fa7bbc).
      if (!(await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok) throw new Error(`The portal did not become ready: ${output}`);
    },
    { timeout: 120_000, interval: 200 },
  );
  return { child, port, baseUrl, exited, output: () => output };
}

async function patientToken(portal: Portal): Promise<string> {
  const response = await fetch(`${portal.baseUrl}/api/rcr/v1/auth/new-login`, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ rut: "12.345.678-5", password: "Paciente2026" }),
  });
  const body = await response.text();
  expect(response.status, `${body}\n${portal.output()}`).toBe(200);
  return (JSON.parse(body) as { payload: { accessToken: string } }).payload.accessToken;
}

/** Lab orders through the slow laboratory, on a connection of its own (no pooled keep-alive sockets). */
function slowRequest(portal: Portal, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${portal.baseUrl}/api/rcr/v1/orders`,
      { headers: { authorization: `Bearer ${token}` }, agent: false },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
  });
}

/** Whether a new TCP connection to the port is refused. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

async function waitForLabRequest(before: number) {
  await expect.poll(() => labRequestsSeen, { message: "the laboratory was never called", timeout: 20_000, interval: 20 }).not.toBe(before);
}

describe("graceful shutdown on SIGTERM", { timeout: 180_000 }, () => {
  it("finishes the request in flight with 200, refuses new connections at once, and exits 0", async () => {
    labDelayMs = 1_500;
    const portal = await startPortal({});
    const token = await patientToken(portal);
    const before = labRequestsSeen;
    let answered = false;
    const inFlight = slowRequest(portal, token).finally(() => (answered = true));
    await waitForLabRequest(before);

    const signalledAt = Date.now();
    portal.child.kill("SIGTERM");
    // Refused at once: as soon as it is, and while the request in flight (1.5 s at the laboratory) has not answered.
    await expect.poll(() => connectionRefused(portal.port), { timeout: 1_000, interval: 20 }).toBe(true);
    expect(answered).toBe(false);

    const answer = await inFlight;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toBeTruthy();
    expect(await portal.exited, portal.output()).toBe(0);
    // It waited for the request, and no longer than the grace period.
    expect(Date.now() - signalledAt).toBeGreaterThan(900);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });

  it("does not wait longer than SHUTDOWN_GRACE_SECONDS for a request that never ends: exits 1", async () => {
    labDelayMs = -1;
    const portal = await startPortal({ SHUTDOWN_GRACE_SECONDS: "1" });
    const token = await patientToken(portal);
    const before = labRequestsSeen;
    const inFlight = slowRequest(portal, token).catch(() => ({ status: 0, body: "" }));
    await waitForLabRequest(before);

    const signalledAt = Date.now();
    portal.child.kill("SIGTERM");
    expect(await portal.exited, portal.output()).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(portal.output()).toContain("killed by timeout");
    await inFlight;
  });
});
