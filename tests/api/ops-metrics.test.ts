import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { abortAtForm, payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { createBill } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Prometheus at /metrics (issue 15, "Métricas"): what it counts, and who may read it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_PAIR: "2" });
});
afterAll(() => ctx.close());

const scrape = async (remoteAddress = "127.0.0.1", headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url: "/metrics", remoteAddress, headers });

/** The value of one sample line, e.g. sample(text, 'portal_logins_total{portal="patient",outcome="ok"}'). */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Resolves once a session of `pool` is waiting for a lock to insert audit rows (10 s at most). */
function waitForLockedInsert(pool: NonNullable<TestContext["db"]["pool"]>): Promise<void> {
  return vi.waitFor(
    async () => {
      const { rows } = await pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "AuditEvent"%'`,
      );
      if (rows.length === 0) throw new Error("the audit INSERT never waited for the lock");
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe("what /metrics counts", () => {
  it("counts requests and latency by route pattern, method and status — never the raw URL with ids or RUTs", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    await ctx.app.inject({ method: "GET", url: api("/admin/987654"), headers: bearer(token) });
    await ctx.app.inject({ method: "GET", url: api("/files/accounts/12.345.678-5"), headers: bearer(token) });
    await ctx.app.inject({ method: "GET", url: "/trpc/users.list", headers: bearer(token) });
    const billsOfRut = encodeURIComponent(JSON.stringify({ rut: "16.789.012-1", page: 1, limit: 10 }));
    await ctx.app.inject({ method: "GET", url: `/trpc/bills.mine?input=${billsOfRut}`, headers: bearer(token) });
    await ctx.app.inject({ method: "GET", url: `/trpc/auth.me,bills.mine?batch=1&input=${billsOfRut}`, headers: bearer(token) });
    await ctx.app.inject({ method: "GET", url: "/no/such/page/16.789.012-1" });
    const text = (await scrape()).body;
    expect(sample(text, 'portal_http_requests_total{route="/api/rcr/v1/admin/:id",method="GET",status="404"}')).toBe(1);
    expect(text).toMatch(/portal_http_requests_total\{route="\/api\/rcr\/v1\/files\/accounts\/:rut",method="GET",status="\d+"\} 1/);
    expect(text).toMatch(/portal_http_requests_total\{route="\/trpc\/users.list",method="GET",status="\d+"\} 1/);
    // A procedure's input (in the query string) is not part of its label; a batch is labelled as one.
    expect(text).toMatch(/portal_http_requests_total\{route="\/trpc\/bills.mine",method="GET",status="\d+"\} 1/);
    expect(text).toMatch(/portal_http_requests_total\{route="\/trpc\/\*",method="GET",status="\d+"\} 1/);
    expect(text).toMatch(
      /portal_http_request_duration_seconds_bucket\{le="0.5",route="\/api\/rcr\/v1\/admin\/:id",method="GET",status="404"\} 1/,
    );
    expect(text).toContain('route="(sin ruta)"');
    for (const leaked of ["987654", "12.345.678", "12345678", "16.789.012"]) expect(text).not.toContain(leaked);
  });

  it("counts logins by portal and outcome, and reports event-loop lag", async () => {
    const before = (await scrape()).body;
    await ctx.login(demo.patient.rut, demo.patient.password);
    // The pair's limit (2) lets exactly two wrong passwords be checked; the next two are refused unchecked.
    for (let i = 0; i < 4; i++) {
      await ctx.app.inject({
        method: "POST",
        url: api("/auth/new-login"),
        payload: { rut: demo.incomplete.rut, password: "Incorrecta1" },
        remoteAddress: "10.9.9.9",
      });
    }
    const after = (await scrape()).body;
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('portal_logins_total{portal="patient",outcome="ok"}')).toBe(1);
    expect(delta('portal_logins_total{portal="patient",outcome="bad_credentials"}')).toBe(2);
    expect(delta('portal_logins_total{portal="patient",outcome="throttled"}')).toBe(2);
    expect(after).toContain("nodejs_eventloop_lag_seconds");
    expect(after).toContain("process_cpu_seconds_total");
  });

  it("adds up how late the event loop runs as a histogram: a 600 ms block lands as one tick between 0.5 and 1 s late", async () => {
    const count = (text: string) => sample(text, "portal_event_loop_delay_seconds_count");
    const between = (text: string) =>
      sample(text, 'portal_event_loop_delay_seconds_bucket{le="1"}') - sample(text, 'portal_event_loop_delay_seconds_bucket{le="0.5"}');
    const before = (await scrape()).body;
    // Blocks the loop as a synchronous piece of work would: the timer due meanwhile fires ≈ 590 ms late. (A busy
    // machine can make any tick some tens of ms late, so only half a second and more is this block's.)
    const until = performance.now() + 600;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = (await scrape()).body;
    expect(count(after) - count(before)).toBeGreaterThan(0);
    expect(between(after) - between(before)).toBe(1);
  });

  it("reports the heap kept after the last full collection, which a soak's trend reads instead of the sawing heap", async () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const kept = await ctx.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
    expect(kept.body).toMatch(/^portal_heap_used_after_gc_bytes \d+/m);

    collect();
    // The collector's performance entry reaches the observer on a later turn of the event loop.
    await expect.poll(async () => sample((await scrape()).body, "portal_heap_used_after_gc_bytes")).toBeGreaterThan(1024 * 1024);
    const bytes = sample((await scrape()).body, "portal_heap_used_after_gc_bytes");
    expect(bytes).toBeLessThan(sample((await scrape()).body, "nodejs_heap_size_total_bytes"));
  });

  it("counts payments by outcome: started, then authorized or rejected or aborted when settled", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const pay = async (finish: (paymentToken: string) => Promise<unknown>) => {
      const bill = await createBill(ctx.db.prisma, "12345678-5");
      const started = await ctx.app.inject({
        method: "POST",
        url: api("/payment/generate-transaction-new-prod"),
        headers: bearer(token),
        payload: { accountId: bill.id, amount: 1, rcrLink: "http://clinicasur.localhost:4200", clinicCode: "hcs-rcr" },
      });
      const paymentToken = started.json().payload.token as string;
      await finish(paymentToken);
      await ctx.app.inject({ method: "GET", url: api(`/payment/new-commit-prod?token_ws=${paymentToken}`), headers: bearer(token) });
    };
    await pay((t) => payAtForm(ctx.mocksUrl, t, testCards.visaApproved));
    await pay((t) => payAtForm(ctx.mocksUrl, t, testCards.mastercardRejected));
    await pay((t) => abortAtForm(ctx.mocksUrl, t));
    const text = (await scrape()).body;
    expect(sample(text, 'portal_payments_total{outcome="started"}')).toBe(3);
    expect(sample(text, 'portal_payments_total{outcome="authorized"}')).toBe(1);
    expect(sample(text, 'portal_payments_total{outcome="rejected"}')).toBe(1);
    expect(sample(text, 'portal_payments_total{outcome="aborted"}')).toBe(1);
  });

  it("times each audit row from the request to its commit: a patient's bill list adds one row and its INSERT", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const before = (await scrape()).body;
    const bills = await ctx.app.inject({ method: "GET", url: api(`/files/accounts/${demo.patient.rut}`), headers: bearer(token) });
    expect(bills.statusCode).toBe(200);
    const after = (await scrape()).body;
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta("portal_audit_row_wait_seconds_count")).toBe(1);
    expect(delta("portal_audit_insert_seconds_count")).toBe(1);
    expect(delta("portal_audit_row_wait_seconds_sum")).toBeGreaterThan(0);
  });

  it("shows a slow audit commit as a slow row: an INSERT held 400 ms by a lock lands above a quarter of a second", async (context) => {
    const pool = ctx.db.pool;
    if (!pool) return context.skip(); // The embedded database has one connection: no second one can hold the lock.
    const before = (await scrape()).body;
    const holder = await pool.connect();
    try {
      // SHARE conflicts with the INSERT's ROW EXCLUSIVE: the login's audit row waits until the holder commits.
      await holder.query(`BEGIN; LOCK TABLE "AuditEvent" IN SHARE MODE`);
      const login = ctx.login(demo.patient.rut, demo.patient.password);
      // Held 400 ms from the moment the INSERT is seen waiting for the lock, however long the login took to get there.
      await waitForLockedInsert(pool);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query("COMMIT");
      await login;
    } finally {
      holder.release();
    }
    const after = (await scrape()).body;
    const delta = (series: string) => sample(after, series) - sample(before, series);
    const rows = delta("portal_audit_row_wait_seconds_count");
    expect(rows).toBeGreaterThanOrEqual(1);
    expect(rows - delta('portal_audit_row_wait_seconds_bucket{le="0.25"}')).toBeGreaterThanOrEqual(1);
    expect(delta("portal_audit_insert_seconds_count") - delta('portal_audit_insert_seconds_bucket{le="0.25"}')).toBeGreaterThanOrEqual(1);
  });

  it("reports the PostgreSQL pool when the portal runs on PostgreSQL", async () => {
    const text = (await scrape()).body;
    if (ctx.db.pool) {
      expect(text).toMatch(/portal_db_pool_connections\{state="total"\} [1-9]/);
      expect(text).toContain('portal_db_pool_connections{state="waiting"} 0');
    } else {
      expect(text).not.toContain("portal_db_pool_connections");
    }
  });
});

describe("who may read /metrics", () => {
  it("answers a direct call from loopback or a private address, as text for Prometheus", async () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.5", "192.168.1.9", "::ffff:10.0.0.7", "fd00::1"]) {
      const response = await scrape(address);
      expect(response.statusCode, address).toBe(200);
      expect(response.headers["content-type"]).toContain("text/plain");
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });

  it("answers 404 through the proxy (X-Forwarded-For or Forwarded present) and from public addresses", async () => {
    const notFound = { statusCode: 404, error: "NOT_FOUND", message: "Recurso no encontrado" };
    for (const [address, headers] of [
      ["127.0.0.1", { "x-forwarded-for": "127.0.0.1" }],
      ["10.0.0.2", { forwarded: "for=10.0.0.3" }],
      ["203.0.113.7", {}],
      ["8.8.8.8", {}],
      ["2001:db8::1", {}],
    ] as const) {
      const response = await scrape(address, headers);
      expect(response.statusCode, address).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it("with METRICS_TOKEN set, answers only that bearer token, from any address", async () => {
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: "test" }, { METRICS_TOKEN: "metricas-secretas-0123456789", PAYMENT_SWEEP_SECONDS: "0" }),
      db: ctx.db,
      logger: false,
    });
    try {
      const get = (headers: Record<string, string>, remoteAddress = "127.0.0.1") =>
        app.inject({ method: "GET", url: "/metrics", headers, remoteAddress });
      expect((await get({})).statusCode).toBe(404);
      expect((await get(bearer("otra-cosa-0123456789012345"))).statusCode).toBe(404);
      expect((await get(bearer("metricas-secretas-0123456789"), "203.0.113.7")).statusCode).toBe(200);
      expect((await get({ ...bearer("metricas-secretas-0123456789"), "x-forwarded-for": "198.51.100.1" })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("each app has its own registry: a second app starts from zero", async () => {
    const app = await buildApp({ config: ctx.config, db: ctx.db, logger: false });
    try {
      const text = (await app.inject({ method: "GET", url: "/metrics" })).body;
      expect(text).not.toContain("portal_logins_total{");
    } finally {
      await app.close();
    }
  });
});
