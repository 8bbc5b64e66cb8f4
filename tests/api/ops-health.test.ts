import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import { overloadMessage } from "../../server/ops/overload.ts";
import { api, createTestContext, type TestContext } from "../helpers/test-app.ts";

// /healthz, /readyz, request ids and the overload guard (issue 15, "Salud y apagado").

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("health and readiness", () => {
  it("/healthz answers 200 without touching anything, never cached", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("/readyz answers 200 with each check when the database answers and every migration is applied", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", load: "ok" } });
    expect(response.headers["cache-control"]).toBe("no-store");
    // The contract's own health route stays (Playwright's web server waits on it).
    expect((await ctx.app.inject({ method: "GET", url: api("/health") })).statusCode).toBe(200);
  });

  it("/readyz answers 503 naming the migration this build ships that the database lacks", async () => {
    const [latest] = await ctx.db.prisma.$queryRaw<Array<{ id: string; migration_name: string }>>`
      SELECT id, migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await ctx.db.prisma.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = ${latest!.id}`;
    try {
      const response = await ctx.app.inject({ method: "GET", url: "/readyz" });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.checks.database).toBe("ok");
      expect(body.checks.migrations).toBe(`Faltan migraciones por aplicar: ${latest!.migration_name}`);
      expect(body.message).toContain("Faltan migraciones por aplicar");
    } finally {
      await ctx.db.prisma.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE id = ${latest!.id}`;
    }
    expect((await ctx.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("/readyz answers 503 when the database does not answer, while /healthz stays 200", async () => {
    // Nothing listens on port 1: every query fails at once.
    const db = await openDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/portal" });
    const app = await buildApp({ config: loadConfig({ NODE_ENV: "test" }, { PAYMENT_SWEEP_SECONDS: "0" }), db, logger: false });
    try {
      const ready = await app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: "unavailable",
        checks: { database: "La base de datos no responde", migrations: "No se pudo comprobar sin base de datos" },
      });
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it("/readyz checks Redis when REDIS_URL is set: ok when it answers PING, degraded (still 200) when it does not", async () => {
    const up = await buildApp({
      config: loadConfig({ NODE_ENV: "test" }, { REDIS_URL: redisUrl, PAYMENT_SWEEP_SECONDS: "0" }),
      db: ctx.db,
      logger: false,
    });
    try {
      const response = await up.inject({ method: "GET", url: "/readyz" });
      expect(response.json().checks.redis).toBe("ok");
      expect(response.statusCode).toBe(200);
    } finally {
      await up.close();
    }
    const down = await buildApp({
      config: loadConfig({ NODE_ENV: "test" }, { REDIS_URL: "redis://127.0.0.1:1", PAYMENT_SWEEP_SECONDS: "0" }),
      db: ctx.db,
      logger: false,
    });
    try {
      const response = await down.inject({ method: "GET", url: "/readyz" });
      // Issue 24: Redis down does not take the instance out of rotation…
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: "degraded", checks: { database: "ok", redis: "Redis no responde" } });
      // …and logins keep working, counted by this instance alone (login-throttle.fallback.ts), without hanging.
      const started = Date.now();
      const login = await down.inject({
        method: "POST",
        url: api("/auth/new-login"),
        payload: { rut: "12.345.678-5", password: "Paciente2026" },
      });
      expect(login.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      await down.close();
    }
  });
});

describe("request ids", () => {
  it("returns a generated id on every answer, and keeps a caller's id only when it is a short safe token", async () => {
    const generated = await ctx.app.inject({ method: "GET", url: "/healthz" });
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: { "x-request-id": "proxy-abc.123:9" } });
    expect(kept.statusCode).toBe(401);
    expect(kept.headers["x-request-id"]).toBe("proxy-abc.123:9");
    for (const unsafe of ["<script>", "a".repeat(65), "id with spaces", "x\u00e9"]) {
      const response = await ctx.app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": unsafe } });
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const trpc = await ctx.app.inject({ method: "GET", url: "/trpc/auth.me" });
    expect(trpc.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await ctx.app.inject({ method: "GET", url: api("/no-existe") });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("overload", () => {
  it("answers 503 with Retry-After and a Spanish message while overloaded; /healthz stays 200, /readyz says not ready", async () => {
    // A heap limit far below any real heap puts the process under pressure from the first sample (after 1 s) on.
    const app = await buildApp({
      config: loadConfig(
        { NODE_ENV: "test" },
        { OVERLOAD_MAX_HEAP_MB: "1", OVERLOAD_RETRY_AFTER_SECONDS: "7", PAYMENT_SWEEP_SECONDS: "0" },
      ),
      db: ctx.db,
      logger: false,
    });
    try {
      await expect.poll(() => app.isUnderPressure(), { timeout: 10_000, interval: 100 }).toBe(true);
      const refused = await app.inject({ method: "GET", url: api("/health") });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers["retry-after"]).toBe("7");
      expect(refused.json()).toEqual({ statusCode: 503, error: "SERVICE_UNAVAILABLE", message: overloadMessage });
      expect(refused.headers["x-request-id"]).toBeTruthy();
      expect((await app.inject({ method: "POST", url: "/trpc/auth.login", payload: {} })).statusCode).toBe(503);
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      const ready = await app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.load).toBe("El servidor está sobrecargado");
    } finally {
      await app.close();
    }
  });

  it("is off by default thresholds for ordinary load: a test app is not under pressure", () => {
    expect(ctx.app.isUnderPressure()).toBe(false);
  });
});
