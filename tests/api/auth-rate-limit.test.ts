import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clearRutFailures } from "../../server/lib/login-throttle.ts";
import { redisThrottleKey } from "../../server/lib/login-throttle.redis.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { demoTotpSecret, totpCode } from "../helpers/second-factor.ts";
import { plainRutOf } from "../helpers/fixtures.ts";
import { tamperedSignature } from "../helpers/tampered.ts";

// The same rules whether the counters live in the database (default) or in Redis (REDIS_URL, several instances).
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Reads and rewinds one counter's back-off, wherever the counters live. */
interface CounterAccess {
  lockedUntil(key: string): Promise<Date | null>;
  expireLock(key: string): Promise<void>;
}

describe.each(["database", "redis"] as const)("login throttling with the counters in the %s", (store) => {
  let ctx: TestContext;
  let counters: CounterAccess;
  let redis: Redis | undefined;
  beforeAll(async () => {
    // A prefix of its own, so runs never see each other's counters in a shared Redis.
    const prefix = `pp-test:${randomBytes(6).toString("hex")}:`;
    ctx = await createTestContext({
      LOGIN_MAX_FAILURES_PER_PAIR: "3",
      LOGIN_MAX_FAILURES_PER_RUT: "5",
      LOGIN_MAX_FAILURES_PER_IP: "12",
      TRUST_PROXY_HOPS: "0",
      ...(store === "redis" ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
    });
    if (store === "redis") {
      // The portal's own connection must be up: until it is, logins are counted per instance (the Redis-down fallback).
      await vi.waitFor(() => expect(ctx.app.deps.redis?.status).toBe("ready"), { timeout: 10_000 });
      const client = new Redis(redisUrl);
      redis = client;
      counters = {
        async lockedUntil(key) {
          const value = await client.hget(redisThrottleKey(prefix, key), "l");
          return value === null ? null : new Date(Number(value));
        },
        async expireLock(key) {
          await client.hset(redisThrottleKey(prefix, key), "l", Date.now() - 1000);
        },
      };
    } else {
      counters = {
        async lockedUntil(key) {
          return (await ctx.db.prisma.loginThrottle.findUniqueOrThrow({ where: { key } })).lockedUntil;
        },
        async expireLock(key) {
          await ctx.db.prisma.loginThrottle.update({ where: { key }, data: { lockedUntil: new Date(Date.now() - 1000) } });
        },
      };
    }
  });
  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${ctx.config.REDIS_KEY_PREFIX}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await ctx.close();
  });

  const attempt = (rut: string, password: string, headers: Record<string, string> = {}, remoteAddress = "10.0.0.1", staff = false) =>
    ctx.app.inject({
      method: "POST",
      url: api(staff ? "/auth/admin-login" : "/auth/new-login"),
      payload: { rut, password },
      headers,
      remoteAddress,
    });
  const newRut = plainRutOf;

  describe("login throttling by (RUT, address), a slower limit per RUT, exponential back-off", () => {
    it("throttles the address that keeps guessing one RUT, with the right password too, after exactly the pair's limit", async () => {
      for (let i = 0; i < 3; i++) expect((await attempt(demo.incomplete.rut, "Incorrecta1", {}, "10.0.1.1")).statusCode).toBe(401);
      const blocked = await attempt(demo.incomplete.rut, demo.incomplete.password, {}, "10.0.1.1");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe("Demasiados intentos fallidos. Espere un minuto e intente nuevamente.");
    });

    it("keeps the owner able to sign in during an attack: the browser that signed in before goes ahead with its device cookie", async () => {
      const before = await attempt(demo.admin.rut, demo.admin.password, {}, "10.0.7.1", true);
      expect(before.statusCode).toBe(200);
      // The browser is known once the whole login is done: the second step sets the cookie (issue 42, point 7).
      expect(before.cookies.find((c) => c.name.startsWith("pp_dispositivo_"))).toBeUndefined();
      const second = await ctx.app.inject({
        method: "POST",
        url: api("/auth/verify-otp"),
        headers: bearer(before.json().payload.accessToken),
        payload: { code: await totpCode(demoTotpSecret(demo.admin.rut)!) },
        remoteAddress: "10.0.7.1",
      });
      expect(second.statusCode).toBe(200);
      const cookie = second.cookies.find((c) => c.name.startsWith("pp_dispositivo_"))!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
      for (let i = 0; i < 12; i++) await attempt(demo.admin.rut, "Incorrecta1", {}, `10.0.6.${i}`, true);
      // The RUT is past its limit: a browser it does not know is held back from any address…
      expect((await attempt(demo.admin.rut, demo.admin.password, {}, "10.0.7.2", true)).statusCode).toBe(429);
      // …and the owner's browser, from a new address too, signs in.
      const owner = await attempt(demo.admin.rut, demo.admin.password, { cookie: `${cookie.name}=${cookie.value}` }, "10.0.7.3", true);
      expect(owner.statusCode).toBe(200);
      // A device cookie of another RUT, or an altered one, is no key.
      const altered = `${cookie.name}=${tamperedSignature(cookie.value)}`;
      expect((await attempt(demo.admin.rut, demo.admin.password, { cookie: altered }, "10.0.7.4", true)).statusCode).toBe(429);
    });

    it("a RUT guessed from many addresses is held back for every address, a new one too, and the alert is raised once (finding 4)", async () => {
      const rut = demo.firstLogin.rut;
      const warnings: string[] = [];
      const original = ctx.app.deps.logWarn;
      ctx.app.deps.logWarn = (_details, message) => void warnings.push(message);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) statuses.push((await attempt(rut, "Incorrecta1", {}, `10.0.8.${i}`)).statusCode);
        // The limit (5) and at most one attempt per back-off period were checked against the password; 40 addresses bought nothing more.
        expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
        expect(statuses.slice(-30).every((status) => status === 429)).toBe(true);
        expect((await attempt(rut, demo.firstLogin.password, {}, "10.0.9.1")).statusCode).toBe(429);
        expect(warnings).toEqual(["login: a RUT passed its failed-attempt limit"]);
      } finally {
        ctx.app.deps.logWarn = original;
      }
      const metrics = await ctx.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
      expect(metrics.body).toMatch(/^portal_login_rut_limit_reached_total [1-9]/m);
    });

    it("counts an IPv6 client by its /64: new addresses of the same block are the same guesser", async () => {
      const rut = newRut("8765333");
      const statuses: number[] = [];
      for (let i = 1; i <= 5; i++) statuses.push((await attempt(rut, "Incorrecta1", {}, `2001:db8:aa:bb::${i.toString(16)}`)).statusCode);
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
    });

    it("backs off exponentially: each attempt past the limit doubles the wait", async () => {
      const rut = newRut("8765100");
      const key = `pair:${rut}|10.0.10.1`;
      for (let i = 0; i < 4; i++) await attempt(rut, "Incorrecta1", {}, "10.0.10.1");
      const first = await counters.lockedUntil(key);
      await counters.expireLock(key);
      expect((await attempt(rut, "Incorrecta1", {}, "10.0.10.1")).statusCode).toBe(401);
      const second = await counters.lockedUntil(key);
      const wait = (lockedUntil: Date | null) => lockedUntil!.getTime() - Date.now();
      expect(wait(first)).toBeGreaterThan(30_000);
      expect(wait(second)).toBeGreaterThan(1.8 * wait(first));
    });

    it("blocks an address that tries many RUTs, and a forged X-Forwarded-For does not escape it", async () => {
      const ruts = Array.from({ length: 12 }, (_, i) => newRut(String(5126663 + i * 1013)));
      for (const [i, rut] of ruts.entries()) {
        const response = await attempt(rut, "Incorrecta1", { "x-forwarded-for": `192.0.2.${i}` }, "10.0.2.1");
        expect(response.statusCode).toBe(401);
      }
      const blocked = await attempt(demo.patient.rut, demo.patient.password, { "x-forwarded-for": "192.0.2.200" }, "10.0.2.1");
      expect(blocked.statusCode).toBe(429);
      const otherAddress = await attempt(demo.patient.rut, demo.patient.password, {}, "10.0.3.1");
      expect(otherAddress.statusCode).toBe(200);
    });

    it("counts attempts sent at the same moment: no more than the limit and one back-off attempt get through", async () => {
      const rut = newRut("8765001");
      const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(rut, "Incorrecta1", {}, "10.0.4.1")));
      const statuses = answers.map((response) => response.statusCode);
      // The limit (3) always gets through; the one back-off slot of each counter (pair and RUT) is claimed atomically, and
      // when two concurrent attempts claim one slot each, neither passes both: at most one extra attempt is checked.
      const checked = statuses.filter((status) => status === 401).length;
      expect(checked).toBeGreaterThanOrEqual(3);
      expect(checked).toBeLessThanOrEqual(4);
      expect(statuses.filter((status) => status === 429)).toHaveLength(20 - checked);
    });

    it("a password reset lets the RUT start afresh from every address it was throttled on", async () => {
      const rut = newRut("8765222");
      for (const address of ["10.0.11.1", "10.0.11.2"]) {
        for (let i = 0; i < 4; i++) await attempt(rut, "Incorrecta1", {}, address);
        expect((await attempt(rut, "Incorrecta1", {}, address)).statusCode).toBe(429);
      }
      await clearRutFailures(ctx.app.deps, rut);
      for (const address of ["10.0.11.1", "10.0.11.2"]) expect((await attempt(rut, "Incorrecta1", {}, address)).statusCode).toBe(401);
    });

    it("keeps the counters only where configured", async () => {
      const rows = await ctx.db.prisma.loginThrottle.count();
      if (store === "redis") {
        expect(rows).toBe(0);
        expect((await redis!.keys(`${ctx.config.REDIS_KEY_PREFIX}login:*`)).length).toBeGreaterThan(0);
      } else {
        expect(rows).toBeGreaterThan(0);
      }
    });

    it("gives the address its attempt back on a right password, so one person logging in often is not blocked", async () => {
      for (let i = 0; i < 15; i++) expect((await attempt(demo.patient.rut, demo.patient.password, {}, "10.0.5.1")).statusCode).toBe(200);
    });
  });
});
