import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { normalizeRut } from "../../server/contract/rut.ts";
import { onRowChange, type CachedTable } from "../../server/db/row-changes.ts";
import type { UserCache } from "../../server/lib/user-cache.ts";
import { api, bearer, createTestContext, demo, secondInstance, type TestContext } from "../helpers/test-app.ts";
import { demoTotpSecret, totpCode } from "../helpers/second-factor.ts";

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

/** Waits until both instances have heard every change committed so far (the feed delivers in commit order). */
async function feedCaughtUp() {
  const marker = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
  let heard = 0;
  const stop = onRowChange((table, id) => {
    if (table === "Session" && id === marker) heard++;
  });
  await ctx.db.prisma.$queryRaw`SELECT pg_notify('portal_row_changes', ${`Session:${marker}`})::text`;
  await expect.poll(() => heard, { timeout: 5_000, interval: 10 }).toBeGreaterThanOrEqual(2);
  stop();
}

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
    await feedCaughtUp(); // the login's own notices are not what this test listens for
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
    await feedCaughtUp(); // the login's own notices are not what this test listens for
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

// The change feed tells the other instance of a commit a moment later (under load, a few milliseconds or more), and the
// person's next request may get there first: the proxy sends consecutive requests to alternate instances. These tests
// hold that moment still: once every notice of the step has arrived, the other instance is given back what it cached
// before the step, as if the notice had not come yet. A stale "yes" would be a hole (the feed is what voids it); a stale
// "no" must not stop a person who has just done what was asked (CI saw one 401 under `npm run stack`'s kill test).
describe("a step just taken on one instance, before the other has heard of it", () => {
  const caches = () => other.deps.cache;
  const userId = async (rut: string) =>
    (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) }, select: { id: true } })).id;

  /**
   * What the other instance caches for the user when `read` makes it look. The feed catches up first: a notice of an
   * earlier commit (the login that made the token) arriving after the read would drop what it cached (CI saw it once).
   */
  async function cachedAfter<T extends object>(cache: UserCache<T>, id: number, read: () => Promise<unknown>): Promise<T> {
    await feedCaughtUp();
    await read();
    const held = await cache.get(id, async () => null);
    expect(held, "the other instance cached it").not.toBeNull();
    return held!;
  }

  /** Puts back what the other instance held before the step, as if the step's notice were still on its way. */
  async function noticeStillOnItsWay<T extends object>(cache: UserCache<T>, id: number, before: T) {
    await feedCaughtUp();
    expect(await cache.get(id, async () => null), "the notice of the step dropped it").toBeNull();
    await cache.get(id, async () => before);
  }

  /** The patient logs in on one instance after the other has cached their open sessions (from an earlier login). */
  async function loginAfterTheOtherCachedSessions() {
    const id = await userId(demo.patient.rut);
    const earlier = await ctx.login(demo.patient.rut, demo.patient.password);
    const sessionsBefore = await cachedAfter(caches().sessions, id, async () =>
      expect((await validate(other, earlier)).statusCode).toBe(200),
    );
    return { id, sessionsBefore, token: await ctx.login(demo.patient.rut, demo.patient.password) };
  }

  it("accepts at once on the other instance the token of a login made on one", async () => {
    const { id, sessionsBefore, token } = await loginAfterTheOtherCachedSessions();
    await noticeStillOnItsWay(caches().sessions, id, sessionsBefore);
    expect((await validate(other, token)).statusCode).toBe(200);
  });

  it("lets a staff member in at once on the other instance after their code was taken on one", async () => {
    const id = await userId(demo.admin.rut);
    const passwordOnly = (await ctx.passwordStep(demo.admin.rut, demo.admin.password, "staff")).accessToken;
    const sessionsBefore = await cachedAfter(caches().sessions, id, async () =>
      expect((await validate(other, passwordOnly)).statusCode).toBe(401),
    );
    await ctx.db.prisma.user.update({ where: { id }, data: { totpLastStep: null } });
    const verified = await ctx.app.inject({
      method: "POST",
      url: api("/auth/verify-otp"),
      headers: bearer(passwordOnly),
      payload: { code: await totpCode(demoTotpSecret(demo.admin.rut)!) },
    });
    expect(verified.statusCode).toBe(200);
    const token = (verified.json() as { payload: { accessToken: string } }).payload.accessToken;
    await noticeStillOnItsWay(caches().sessions, id, sessionsBefore);
    expect((await validate(other, token)).statusCode).toBe(200);
  });

  it("tells the other instance that the terms accepted on one are accepted, and takes the token of the new password set there", async () => {
    const id = await userId(demo.firstLogin.rut);
    const token = await ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
    const termsOn = async (app: FastifyInstance, bearerToken: string) =>
      (await app.inject({ method: "GET", url: api("/term-conditions/validate-tyc"), headers: bearer(bearerToken) })).json() as unknown;
    let notYet: unknown;
    const userBeforeTerms = await cachedAfter(caches().users, id, async () => (notYet = await termsOn(other, token)));
    const accepted = await ctx.app.inject({ method: "POST", url: api("/term-conditions/accept"), headers: bearer(token) });
    expect(accepted.statusCode).toBe(200);
    await noticeStillOnItsWay(caches().users, id, userBeforeTerms);
    const now = await termsOn(other, token);
    expect(now).not.toEqual(notYet);
    expect(now).toEqual(await termsOn(ctx.app, token));

    const userBeforePassword = await cachedAfter(caches().users, id, () => termsOn(other, token));
    const changed = await ctx.app.inject({
      method: "POST",
      url: api("/auth/change-password-user"),
      headers: bearer(token),
      payload: { oldPassword: demo.firstLogin.password, password: "MiClaveNueva2027", passwordConfirmation: "MiClaveNueva2027" },
    });
    expect(changed.statusCode).toBe(200);
    const newToken = (changed.json() as { payload: { accessToken: string } }).payload.accessToken;
    await noticeStillOnItsWay(caches().users, id, userBeforePassword);
    expect((await validate(other, newToken)).statusCode).toBe(200);
    expect((await validate(other, token)).statusCode).toBe(401);
  });

  it("serves on the other instance a download link made on one right after a login there", async () => {
    const { id, sessionsBefore, token } = await loginAfterTheOtherCachedSessions();
    const get = async <T>(path: string) => (await ctx.app.inject({ method: "GET", url: api(path), headers: bearer(token) })).json() as T;
    const bills = await get<{ accounts: Array<{ id: number; filesCount: number }> }>("/files/accounts/12345678-5?limit=100");
    const withFile = bills.accounts.find((bill) => bill.filesCount > 0)!;
    const files = await get<{ getFileList: Array<{ path: string }> }>(`/files/list/${withFile.id}`);
    const link = await get<{ url: string }>(`/files/${files.getFileList[0]!.path}`);
    await noticeStillOnItsWay(caches().sessions, id, sessionsBefore);
    const download = await other.inject({ method: "GET", url: link.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
  });

  it("refuses a token of an ended session without dropping the person's cached row, which their other sessions use", async () => {
    const id = await userId(demo.patient.rut);
    const ended = await ctx.login(demo.patient.rut, demo.patient.password);
    const open = await ctx.login(demo.patient.rut, demo.patient.password);
    const loggedOut = await ctx.app.inject({ method: "POST", url: api("/auth/logout"), headers: bearer(ended) });
    expect(loggedOut.statusCode).toBe(200);
    const row = await cachedAfter(caches().users, id, async () => expect((await validate(other, open)).statusCode).toBe(200));
    for (let i = 0; i < 3; i++) expect((await validate(other, ended)).statusCode).toBe(401);
    expect(await caches().users.get(id, async () => null)).toBe(row);
  });
});
