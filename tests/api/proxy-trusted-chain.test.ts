import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.ts";
import { createTestContext, type TestContext } from "../helpers/test-app.ts";

// The trusted chain (issue 34): a load balancer → Caddy (deploy/Caddyfile, PROXY_TRUSTED_PROXIES) → the portal
// (TRUST_PROXY_HOPS=2). The balancer's X-Forwarded-For must reach the audit row and the login limiter; from an address
// Caddy does not trust, a forged one must not. Runs the real Caddyfile with Caddy (only where caddy is installed; CI
// installs Debian's), its upstreams pointed at a portal listening on a free port. This test's client plays the balancer.

const repo = path.resolve(import.meta.dirname, "../..");
const caddyInstalled = spawnSync("caddy", ["version"], { encoding: "utf8" }).status === 0;
const workDir = mkdtempSync(path.join(tmpdir(), "pp-caddy-"));
let ctx: TestContext;
let portalPort: number;
const proxies: ChildProcess[] = [];

/** Starts Caddy on deploy/Caddyfile (upstreams, admin and HTTP port rewritten for this machine); returns its port. */
async function startCaddy(trusted: string): Promise<number> {
  const [httpPort, adminPort] = [await freePort(), await freePort()];
  const caddyfile = readFileSync(path.join(repo, "deploy/Caddyfile"), "utf8")
    .replace("admin 127.0.0.1:2019", `admin 127.0.0.1:${adminPort}\n\thttp_port ${httpPort}`)
    .replace("reverse_proxy portal-1:4200 portal-2:4200", `reverse_proxy 127.0.0.1:${portalPort}`);
  expect(caddyfile).toContain(`reverse_proxy 127.0.0.1:${portalPort}`);
  const file = path.join(workDir, `Caddyfile-${httpPort}`);
  writeFileSync(file, caddyfile);
  const child = spawn("caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
    env: {
      PATH: process.env.PATH,
      HOME: workDir,
      XDG_DATA_HOME: workDir,
      XDG_CONFIG_HOME: workDir,
      PROXY_SCHEME: "http",
      PROXY_TRUSTED_PROXIES: trusted,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proxies.push(child);
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if ((await send(httpPort, "GET", "/readyz").catch(() => ({ status: 0 }))).status === 200) return httpPort;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Caddy no quedó listo:\n${output}`);
}

/** A request to Caddy from 127.0.0.1 for the host "localhost" (the trial site of the Caddyfile). */
function send(port: number, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: url,
        headers: { Host: "localhost", ...(payload ? { "content-type": "application/json" } : {}), ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

async function failedLoginFrom(proxyPort: number, forwardedFor: string) {
  const response = await send(
    proxyPort,
    "POST",
    "/api/rcr/v1/auth/new-login",
    { rut: "12.345.678-5", password: "equivocada" },
    { "X-Forwarded-For": forwardedFor },
  );
  expect(response.status).toBe(401);
}

async function auditedAddresses(): Promise<string[]> {
  const rows = await ctx.db.prisma.auditEvent.findMany({ where: { action: "login.patient" }, select: { ip: true } });
  return rows.map((row) => row.ip ?? "");
}

async function throttledAddresses(): Promise<string[]> {
  const rows = await ctx.db.prisma.loginThrottle.findMany({ where: { key: { startsWith: "ip:" } }, select: { key: true } });
  return rows.map((row) => row.key.slice(3));
}

beforeAll(async () => {
  if (!caddyInstalled) return;
  ctx = await createTestContext({ TRUST_PROXY_HOPS: "2" });
  portalPort = await freePort();
  await ctx.app.listen({ host: "127.0.0.1", port: portalPort });
}, 60_000);

afterAll(async () => {
  for (const child of proxies) if (child.exitCode === null) child.kill("SIGTERM");
  await ctx?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(!caddyInstalled)("the chain load balancer → Caddy → portal (deploy/Caddyfile's trusted_proxies)", () => {
  it("keeps the client's address from a trusted balancer: it is in the audit row and in the login limiter", async () => {
    const proxyPort = await startCaddy("127.0.0.1/32");
    await failedLoginFrom(proxyPort, "203.0.113.7");
    expect(await auditedAddresses()).toContain("203.0.113.7");
    expect(await throttledAddresses()).toContain("203.0.113.7");
  }, 60_000);

  it("replaces a forged X-Forwarded-For from an address it does not trust, so nobody dodges the limiter", async () => {
    const proxyPort = await startCaddy("10.0.0.0/8 192.168.0.0/16");
    await failedLoginFrom(proxyPort, "198.51.100.9");
    expect(await auditedAddresses()).not.toContain("198.51.100.9");
    expect(await throttledAddresses()).not.toContain("198.51.100.9");
    expect(await auditedAddresses()).toContain("127.0.0.1");
  }, 60_000);
});
