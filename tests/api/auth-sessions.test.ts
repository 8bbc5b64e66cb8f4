import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import { api, bearer, createTestContext, demo, secondInstance, type TestContext } from "../helpers/test-app.ts";

// Issue 23, finding 3: 'Cerrar sesión' made no call to the server and the token kept working for its 480 minutes.
// Logging out now ends the session on the server, and every instance refuses its tokens (OWASP ASVS 3.3.1).

let ctx: TestContext;
let second: Awaited<ReturnType<typeof secondInstance>>;
let other: FastifyInstance;
beforeAll(async () => {
  ctx = await createTestContext();
  second = await secondInstance(ctx);
  other = second.app;
});
afterAll(async () => {
  await second.close();
  await ctx.close();
});

const me = (app: FastifyInstance, token: string) => app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(token) });
const logout = (app: FastifyInstance, token: string) => app.inject({ method: "POST", url: api("/auth/logout"), headers: bearer(token) });

describe("logging out", () => {
  it("ends the session: the token answers 401 on REST and tRPC right after, and the logout is audited", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    expect((await me(ctx.app, token)).statusCode).toBe(200);
    const answer = await logout(ctx.app, token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ payload: true });
    expect((await me(ctx.app, token)).statusCode).toBe(401);
    const trpc = await ctx.app.inject({ method: "GET", url: "/trpc/account.me", headers: bearer(token) });
    expect(trpc.statusCode).toBe(401);
    const validate = await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(token) });
    expect(validate.statusCode).toBe(401);
    const patient = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.patient.rut) } });
    const audited = await ctx.db.prisma.auditEvent.findFirst({ where: { actorId: patient.id, action: "logout" } });
    expect(audited).toMatchObject({ resource: "session", outcome: "ok" });
  });

  it("is refused by another instance as soon as the database announces it", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await me(other, token)).statusCode).toBe(200);
    expect((await me(other, token)).statusCode).toBe(200); // now cached on the other instance
    expect((await logout(ctx.app, token)).statusCode).toBe(200);
    await expect.poll(async () => (await me(other, token)).statusCode, { timeout: 1_000, interval: 10 }).toBe(401);
  });

  it("over tRPC ends only that session: the same person signed in elsewhere goes on", async () => {
    const here = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    const elsewhere = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    const answer = await ctx.app.inject({ method: "POST", url: "/trpc/auth.logout", headers: bearer(here) });
    expect(answer.statusCode).toBe(200);
    expect((await me(ctx.app, here)).statusCode).toBe(401);
    expect((await me(ctx.app, elsewhere)).statusCode).toBe(200);
    // A second click, or another tab, after the session ended: 401, nothing else changes.
    expect((await logout(ctx.app, here)).statusCode).toBe(401);
  });

  it("keeps what a later session list needs: device, address, first and last seen, and why it ended", async () => {
    const token = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: { ...bearer(token), "user-agent": "Mozilla/5.0 Prueba" } });
    expect((await logout(ctx.app, token)).statusCode).toBe(200);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.incomplete.rut) } });
    const [session] = await ctx.db.prisma.session.findMany({ where: { userId: user.id }, orderBy: { createdAt: "desc" }, take: 1 });
    expect(session).toMatchObject({ endReason: "logout", ip: "127.0.0.1" });
    expect(session!.endedAt).not.toBeNull();
    expect(session!.expiresAt.getTime() - session!.createdAt.getTime()).toBe(ctx.config.ACCESS_TOKEN_TTL_MINUTES * 60_000);
  });
});

describe("a password change", () => {
  it("ends the person's other sessions and keeps the one that changed it", async () => {
    const rut = "16.789.012-1";
    const first = await ctx.login(rut, demo.incomplete.password);
    const second = await ctx.login(rut, demo.incomplete.password);
    const changed = await ctx.app.inject({
      method: "POST",
      url: api("/auth/change-password-user?clinic=hcs-rcr"),
      headers: bearer(first),
      payload: { oldPassword: demo.incomplete.password, password: "Cambiada2026x", passwordConfirmation: "Cambiada2026x" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(ctx.app, changed.json().payload.accessToken)).statusCode).toBe(200);
    expect((await me(ctx.app, second)).statusCode).toBe(401);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) } });
    const open = await ctx.db.prisma.session.count({ where: { userId: user.id, endedAt: null } });
    expect(open).toBe(1);
  });
});
