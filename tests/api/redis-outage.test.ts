import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisThrottleKey } from "../../server/lib/login-throttle.redis.ts";
import { freePort, listening } from "../helpers/ports.ts";
import { api, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 24, "Redis caído": the portal's Redis (a redis-server of this test's own on a free port) is killed while the
// portal runs. Logins keep working and keep being limited, per instance; when Redis returns, the shared counters do too.

let port: number;
let server: ChildProcess | undefined;
let ctx: TestContext;
let client: Redis;

async function startRedis() {
  server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}
async function killRedis() {
  const exited = new Promise((resolve) => server!.once("exit", resolve));
  server!.kill("SIGKILL");
  await exited;
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  ctx = await createTestContext({ REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: "silent" });
  client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on("error", () => {});
  await client.connect();
}, 60_000);
afterAll(async () => {
  client.disconnect();
  await ctx.close();
  if (server && server.exitCode === null) await killRedis();
});

const attempt = (rut: string, password: string, remoteAddress: string) =>
  ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: { rut, password }, remoteAddress });
const pairKey = (address: string) => redisThrottleKey(ctx.config.REDIS_KEY_PREFIX, `pair:12345678-5|${address}`);

describe("Redis down under the portal", () => {
  it("counts failed logins in Redis while it answers", async () => {
    expect((await attempt(demo.patient.rut, "Incorrecta1", "10.9.0.1")).statusCode).toBe(401);
    expect(await client.exists(pairKey("10.9.0.1"))).toBe(1);
  });

  it("keeps logins working while Redis is down, with the limit counted by the instance", async () => {
    await killRedis();
    const started = Date.now();
    expect((await attempt(demo.patient.rut, demo.patient.password, "10.9.0.2")).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(6_000);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await attempt(demo.patient.rut, "Incorrecta1", "10.9.0.3")).statusCode);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    expect((await ctx.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("uses the shared counters again when Redis returns", async () => {
    await startRedis();
    const deadline = Date.now() + 10_000;
    while (ctx.app.deps.redis?.status !== "ready" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await attempt(demo.patient.rut, "Incorrecta1", "10.9.0.4")).statusCode).toBe(401);
    expect(await client.exists(pairKey("10.9.0.4"))).toBe(1);
  });
});
