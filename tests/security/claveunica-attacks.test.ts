import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieBrowser } from "../helpers/claveunica-browser.ts";
import { api, type TestContext } from "../helpers/test-app.ts";
import { callback, contextWith, cookieFrom, handOver, SUR, toProviderAndBack } from "../helpers/claveunica-journey.ts";
import {
  FLOW_COOKIE,
  HANDOFF_COOKIE,
  openCookie,
  sealCookie,
  type ClaveUnicaFlow,
} from "../../server/features/claveunica/claveunica-flow.ts";

// Sign-in with ClaveÚnica (issue 43) against the ClaveÚnica mock (oidc-provider) over HTTP, with the portal's relying
// party (openid-client): the journeys, and the attacks that must fail, each answered in Spanish, signing nobody in, audited.

const MAITENES = "maitenes.localhost:4200";

async function refusals(ctx: TestContext): Promise<string[]> {
  const rows = await ctx.db.prisma.auditEvent.findMany({
    where: { action: "login.claveunica", outcome: "denied" },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => (row.after as { reason: string }).reason);
}

describe("ClaveÚnica sign-in: journeys and attacks", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await contextWith("/claveunica");
  });
  afterAll(() => ctx.close());

  it("signs the demo patient in by the RUN ClaveÚnica returns, with a session of the portal, audited as 'login.claveunica'", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5", { next: "/dashboard/my-bills" });
    const answer = await callback(ctx, journey);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/claveunica/listo");
    const session = await handOver(ctx, answer);
    expect(session.statusCode).toBe(200);
    const { payload } = session.json<{ payload: { user: { rut: string }; accessToken: string; next: string } }>();
    expect(payload.user.rut).toBe("12.345.678-5");
    expect(payload.next).toBe("/dashboard/my-bills");
    const valid = await ctx.app.inject({
      method: "GET",
      url: api("/auth/validate-token"),
      headers: { authorization: `Bearer ${payload.accessToken}` },
    });
    expect(valid.statusCode).toBe(200);
    const sessions = await ctx.db.prisma.session.count({ where: { user: { rut: "12345678-5" }, endedAt: null } });
    expect(sessions).toBeGreaterThan(0);
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "login.claveunica", outcome: "ok" } })).toBe(1);
  });

  it("hands the session over once: a second POST gets 400 in Spanish, nothing to hand over", async () => {
    const answer = await callback(ctx, await toProviderAndBack(ctx, "12.345.678-5"));
    const handoff = cookieFrom(answer.headers["set-cookie"], HANDOFF_COOKIE);
    expect((await handOver(ctx, answer)).statusCode).toBe(200);
    // The browser dropped the cookie; an attacker who kept its value can still not use it past its two minutes, and the
    // real browser holds no session to hand over a second time.
    const again = await ctx.app.inject({ method: "POST", url: api("/auth/claveunica/session") });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/ClaveÚnica/);
    expect(handoff).toBeTruthy();
  });

  it("a RUN without a portal account: back to /login with 'sin-cuenta', nothing created, audited", async () => {
    const before = await ctx.db.prisma.user.count();
    const answer = await callback(ctx, await toProviderAndBack(ctx, "9.876.543-3"));
    expect(answer.headers.location).toBe("/login?claveunica=sin-cuenta");
    expect(await ctx.db.prisma.user.count()).toBe(before);
    expect(await refusals(ctx)).toContain("sin-cuenta");
  });

  it("a staff RUN never signs in this way", async () => {
    const answer = await callback(ctx, await toProviderAndBack(ctx, "11.111.111-1"));
    expect(answer.headers.location).toBe("/login?claveunica=personal");
    expect(cookieFrom(answer.headers["set-cookie"], HANDOFF_COOKIE)).toBeUndefined();
    expect(await refusals(ctx)).toContain("personal");
  });

  it("refuses a callback whose state this browser did not start (no flow cookie, or another flow's)", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5");
    const withoutCookie = await callback(ctx, journey, { flowCookie: null });
    expect(withoutCookie.headers.location).toBe("/login?claveunica=rechazado");
    const other = await toProviderAndBack(ctx, "12.345.678-5");
    const crossed = await callback(ctx, journey, { flowCookie: other.flowCookie });
    expect(crossed.headers.location).toBe("/login?claveunica=rechazado");
    expect(cookieFrom(crossed.headers["set-cookie"], HANDOFF_COOKIE)).toBeUndefined();
  });

  it("refuses a forged flow cookie", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5");
    const flow = openCookie<ClaveUnicaFlow>(ctx.config.JWT_SECRET, "flow", journey.flowCookie)!;
    const forged = sealCookie("otro-secreto-que-el-portal-no-tiene-000000", "flow", flow);
    expect((await callback(ctx, journey, { flowCookie: forged })).headers.location).toBe("/login?claveunica=rechazado");
  });

  it("refuses a code used twice", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5");
    expect((await callback(ctx, journey)).headers.location).toBe("/claveunica/listo");
    const replay = await callback(ctx, journey);
    expect(replay.headers.location).toBe("/login?claveunica=rechazado");
  });

  it("refuses a callback from one clinic's login finishing on another clinic's host", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5");
    const answer = await callback(ctx, journey, { host: MAITENES });
    expect(answer.headers.location).toBe("/login?claveunica=otra-clinica");
    expect(await refusals(ctx)).toContain("otra-clinica");
  });

  it("refuses an ID token whose nonce is not the one this browser sent", async () => {
    const journey = await toProviderAndBack(ctx, "12.345.678-5");
    const flow = openCookie<ClaveUnicaFlow>(ctx.config.JWT_SECRET, "flow", journey.flowCookie)!;
    const otherNonce = sealCookie(ctx.config.JWT_SECRET, "flow", { ...flow, nonce: "otro-nonce" });
    expect((await callback(ctx, journey, { flowCookie: otherNonce })).headers.location).toBe("/login?claveunica=rechazado");
  });

  it("keeps no open redirect through the page the patient was going to", async () => {
    for (const next of ["//atacante.example/", "https://atacante.example/", "/\\atacante.example", "/api/rcr/v1/users"]) {
      const answer = await callback(ctx, await toProviderAndBack(ctx, "12.345.678-5", { next }));
      const { payload } = (await handOver(ctx, answer)).json<{ payload: { next: string } }>();
      expect(payload.next).toBe("/dashboard");
    }
  });

  it("a patient who cancels at ClaveÚnica is back at /login with 'cancelado'", async () => {
    const start = await ctx.app.inject({ method: "GET", url: "/claveunica/ingresar", headers: { host: SUR } });
    const flowCookie = cookieFrom(start.headers["set-cookie"], FLOW_COOKIE)!;
    const browser = new CookieBrowser();
    const back = await browser.cancelAtProvider(await browser.follow(start.headers.location!), `http://${SUR}/claveunica/retorno`);
    const answer = await callback(ctx, { flowCookie, back });
    expect(answer.headers.location).toBe("/login?claveunica=cancelado");
  });
});

describe("ClaveÚnica sign-in with a provider that misbehaves", () => {
  it("an ID token signed by a key outside the provider's JWKS signs nobody in", async () => {
    const ctx = await contextWith("/fallas/firma-ajena/claveunica");
    try {
      const answer = await callback(ctx, await toProviderAndBack(ctx, "12.345.678-5"));
      expect(answer.headers.location).toBe("/login?claveunica=rechazado");
      expect(await refusals(ctx)).toEqual(["rechazado"]);
    } finally {
      await ctx.close();
    }
  });

  it("an answer whose iss is another party's is refused", async () => {
    const ctx = await contextWith("/claveunica");
    try {
      const journey = await toProviderAndBack(ctx, "12.345.678-5");
      const url = new URL(journey.back.location!);
      url.searchParams.set("iss", "https://otro-proveedor.example");
      const answer = await callback(ctx, { ...journey, back: { ...journey.back, location: url.href } });
      expect(answer.headers.location).toBe("/login?claveunica=rechazado");
    } finally {
      await ctx.close();
    }
  });

  it("the provider down: back to /login with 'no-disponible'", async () => {
    const ctx = await contextWith("/fallas/caida/claveunica");
    try {
      const start = await ctx.app.inject({ method: "GET", url: "/claveunica/ingresar", headers: { host: SUR } });
      expect(start.headers.location).toBe("/login?claveunica=no-disponible");
      const options = await ctx.app.inject({ method: "GET", url: api("/auth/claveunica/options"), headers: { host: SUR } });
      expect(options.json().payload).toEqual({ enabled: true, logoutUrl: null });
    } finally {
      await ctx.close();
    }
  });
});
