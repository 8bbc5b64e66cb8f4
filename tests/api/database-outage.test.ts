import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestCluster, type TestCluster } from "../helpers/pg-cluster.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 24, "PostgreSQL reiniciado": the portal's PostgreSQL (a cluster of this test's own, started with pg_ctl on a free
// port, never the machine's shared server) crashes and comes back. While it is down /readyz answers 503 and every
// request that needs the database gets a Spanish 503 with Retry-After (never a 500 or a stack trace), on REST and tRPC;
// once it is back the same process serves again within 10 s, without a restart.

let cluster: TestCluster;
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  cluster = await startTestCluster();
  ctx = await createTestContext({ LOG_LEVEL: "silent" }, { databaseServerUrl: cluster.url() });
  token = await ctx.login(demo.patient.rut, demo.patient.password);
}, 120_000);
afterAll(async () => {
  await ctx?.close().catch(() => {});
  cluster?.destroy();
});

const unavailable = "El servicio no está disponible en este momento. Intente nuevamente en unos segundos.";
const bills = () =>
  ctx.app.inject({ method: "GET", url: api("/files/accounts/12.345.678-5?page=1&limit=10&clinic=hcs-rcr"), headers: bearer(token) });
const trpcBills = () =>
  ctx.app.inject({
    method: "GET",
    url: `/trpc/bills.mine?input=${encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }))}`,
    headers: bearer(token),
  });
const login = () =>
  ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: { rut: demo.patient.rut, password: demo.patient.password } });
const ready = () => ctx.app.inject({ method: "GET", url: "/readyz" });

describe("PostgreSQL restarted under the portal", () => {
  it("serves normally before the outage", async () => {
    expect((await bills()).statusCode).toBe(200);
    expect((await trpcBills()).statusCode).toBe(200);
    expect((await ready()).statusCode).toBe(200);
  });

  it("answers 503 in Spanish while PostgreSQL is down: readiness, REST, tRPC and login", async () => {
    cluster.stop("immediate");

    const readiness = await ready();
    expect(readiness.statusCode).toBe(503);
    expect(readiness.json().checks.database).toBe("La base de datos no responde");

    for (const response of [await bills(), await login()]) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ statusCode: 503, error: "UNAVAILABLE", message: unavailable });
      expect(response.headers["retry-after"]).toBe("5");
    }
    const rpc = await trpcBills();
    expect(rpc.statusCode).toBe(503);
    expect(rpc.json().error.message).toBe(unavailable);
    expect(rpc.body).not.toMatch(/prisma|ECONNREFUSED|\bat \S+ \(/i);
  });

  it("recovers by itself within 10 s of PostgreSQL's return, in the same process", async () => {
    cluster.start();
    const started = Date.now();
    let recovered = false;
    while (Date.now() - started < 10_000) {
      const [readiness, rest, rpc, signIn] = await Promise.all([ready(), bills(), trpcBills(), login()]);
      if ([readiness, rest, rpc, signIn].every((response) => response.statusCode === 200)) {
        recovered = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);
  });
});
