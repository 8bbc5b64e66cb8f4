import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { normalizeRut } from "../../server/contract/rut.ts";
import { onRowChange, type CachedTable } from "../../server/db/row-changes.ts";
import { api, bearer, createTestContext, demo, secondInstance, type TestContext } from "../helpers/test-app.ts";

// The signed-in user's row is cached per instance (server/lib/user-cache.ts). These tests hold the cache to what makes
// it safe: a change committed anywhere — another instance, an operator command, psql — reaches every instance at once.

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

const validate = (app: FastifyInstance, token: string) =>
  app.inject({ method: "GET", url: api("/auth/validate-token"), headers: { authorization: `Bearer ${token}` } });
const me = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: "GET", url: api("/auth/me"), headers: { authorization: `Bearer ${token}` } })).json() as {
    payload: { firstName: string };
  };

describe("the per-instance user cache", () => {
  it("voids the old token on another instance as soon as the password changes on one", async () => {
    const token = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    expect((await validate(other, token)).statusCode).toBe(200);
    expect((await validate(other, token)).statusCode).toBe(200);
    const changed = await ctx.app.inject({
      method: "POST",
      url: api("/auth/change-password-user"),
      headers: { authorization: `Bearer ${token}` },
      payload: { oldPassword: demo.incomplete.password, password: "OtraClave2027x", passwordConfirmation: "OtraClave2027x" },
    });
    expect(changed.statusCode).toBe(200);
    expect((await validate(ctx.app, token)).statusCode).toBe(401);
    await expect.poll(async () => (await validate(other, token)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
  });

  it("hears of a change written outside the portal (psql, an operator command) through the database's trigger", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    expect((await validate(ctx.app, token)).statusCode).toBe(200);
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "tokenVersion" = "tokenVersion" + 1 WHERE rut = '12345678-5'`;
    await expect.poll(async () => (await validate(ctx.app, token)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
    await expect.poll(async () => (await validate(other, token)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
  });

  it("shows a profile edited on one instance in /auth/me on the other", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await me(other, token)).payload.firstName).toBe("Ana");
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "firstName" = 'Anita' WHERE rut = '11111111-1'`;
    await expect.poll(async () => (await me(other, token)).payload.firstName, { timeout: 2_000, interval: 20 }).toBe("Anita");
  });

  it("applies an executive's clinics taken away by an admin on the other instance at once", async () => {
    const executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    const list = async (app: FastifyInstance) =>
      (
        await app.inject({
          method: "GET",
          url: api("/admin/filter/users?page=1&limit=10&roleType=2"),
          headers: { authorization: `Bearer ${executive}` },
        })
      ).json() as { total: number };
    expect((await list(other)).total).toBeGreaterThan(0);
    await ctx.db.prisma.$executeRaw`DELETE FROM "Privilege" WHERE "userId" = (SELECT id FROM "User" WHERE rut = '22222222-2')`;
    await expect.poll(async () => (await list(other)).total, { timeout: 2_000, interval: 20 }).toBe(0);
  });

  it("announces a change of a user's phone or password as 'UserDetails' and one of their names or role as 'User'", async () => {
    const heard: string[] = [];
    const stop = await ctx.db.listen(
      "portal_row_changes",
      (payload) => heard.push(payload ?? ""),
      () => {},
    );
    const { id } = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" }, select: { id: true } });
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "phoneNumber" = '+56911112222' WHERE id = ${id}`;
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "tokenVersion" = "tokenVersion" + 1 WHERE id = ${id}`;
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "searchText" = "searchText" || ' otro' WHERE id = ${id}`;
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "roleType" = 1 WHERE id = ${id}`;
    await ctx.db.prisma.$executeRaw`UPDATE "User" SET "roleType" = 2 WHERE id = ${id}`;
    await expect
      .poll(() => heard.filter((payload) => payload.endsWith(`:${id}`)), { timeout: 2_000, interval: 20 })
      .toEqual([`UserDetails:${id}`, `UserDetails:${id}`, `User:${id}`, `User:${id}`, `User:${id}`]);
    await stop();
  });

  it("counts a user added anywhere in the staff list's total at once (totals are cached between pages)", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const total = async (app: FastifyInstance) =>
      (
        (
          await app.inject({
            method: "GET",
            url: api("/admin/filter/users?page=1&limit=10"),
            headers: { authorization: `Bearer ${admin}` },
          })
        ).json() as { total: number }
      ).total;
    const before = await total(other);
    expect(await total(other)).toBe(before);
    await ctx.db.prisma
      .$executeRaw`INSERT INTO "User" (rut, email, "passwordHash", "updatedAt") VALUES ('9999999-3', 'nuevo@correo.cl', 'x', now())`;
    await expect.poll(() => total(other), { timeout: 2_000, interval: 20 }).toBe(before + 1);
    expect(await total(ctx.app)).toBe(before + 1);
  });

  it("drops the bill lists' totals, and not the user list's, when staff create a bill", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const heard: Array<CachedTable | null> = [];
    const stop = onRowChange((table) => heard.push(table));
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(admin),
      payload: {
        rut: "12.345.678-5",
        accountCode: "770001",
        createAccountIdDate: "2026-02-14",
        amount: 1000,
        isPaid: false,
        clinicCode: "hcs-rcr",
      },
    });
    expect(created.statusCode).toBe(200);
    // The writer's own announcement, then the database's (delivered on the change feed).
    await expect.poll(() => heard.filter((table) => table === "Bill").length, { timeout: 2_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    stop();
    expect(heard).not.toContain("User");
  });

  it("keeps the lists' totals when staff change a patient's phone with the whole edit form (same role)", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    // Another patient than the one whose search text the test above rewrote by hand.
    const patient = await ctx.db.prisma.user.findUniqueOrThrow({
      where: { rut: normalizeRut(demo.incomplete.rut) },
      select: { id: true, roleType: true },
    });
    const heard: Array<CachedTable | null> = [];
    const stop = onRowChange((table) => heard.push(table));
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: api(`/admin/${patient.id}`),
      headers: bearer(admin),
      payload: { phoneNumber: "+56987654321", roleType: patient.roleType },
    });
    expect(edited.statusCode).toBe(200);
    await expect
      .poll(() => heard.filter((table) => table === "UserDetails").length, { timeout: 2_000, interval: 20 })
      .toBeGreaterThanOrEqual(2);
    stop();
    expect(heard.filter((table) => table !== "UserDetails")).toEqual([]);
  });

  it("counts a bill removed anywhere in the bill lists' totals at once", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const total = async (app: FastifyInstance) =>
      (
        (
          await app.inject({
            method: "GET",
            url: api("/files/filter/users?page=1&limit=10"),
            headers: { authorization: `Bearer ${admin}` },
          })
        ).json() as { total: number }
      ).total;
    const before = await total(other);
    expect(before).toBeGreaterThan(0);
    await ctx.db.prisma
      .$executeRaw`DELETE FROM "Bill" WHERE id = (SELECT max(b.id) FROM "Bill" b WHERE NOT EXISTS (SELECT 1 FROM "PaymentTransaction" t WHERE t."billId" = b.id))`;
    await expect.poll(() => total(other), { timeout: 2_000, interval: 20 }).toBe(before - 1);
  });
});
