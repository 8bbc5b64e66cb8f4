import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/test-app.ts";
import { checkedWrong, insertAccount, loginRoutes, type LoginRoute, LOGIN_ROUTE_NAMES } from "./support/login-routes.ts";

// Issue 42, point 8, as a family over every login-like route (support/login-routes.ts): in Chile many patients share
// one address (a clinic's waiting-room Wi-Fi, a carrier's CGNAT), so the throttle must hold an attacker to the limits
// without turning one person's burst, or everyone's typos, into an address locked for an hour. The portal's own limits
// (LOGIN_MAX_FAILURES_PER_PAIR 5, PER_RUT 30, PER_IP 50, back-off from 1 minute), not test-sized ones.

let ctx: TestContext;
let routes: Map<string, LoginRoute>;
beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY_HOPS: "0" });
  routes = new Map(loginRoutes(ctx).map((route) => [route.name, route]));
});
afterAll(() => ctx.close());

const routeNames = LOGIN_ROUTE_NAMES;
let block = 0;
/** Addresses of a /24 no other test uses (each address counts on its own). */
const newBlock = () => `10.42.${(block += 1)}`;

describe.each(routeNames)("%s", (name) => {
  it("checks exactly the account's limit of wrong guesses sent one after another from 60 addresses, not one more", async () => {
    const route = routes.get(name)!;
    const account = await route.newAccount();
    const net = newBlock();
    const statuses: number[] = [];
    for (let i = 1; i <= 60; i++) statuses.push((await route.attempt(account, false, `${net}.${i}`)).status);
    const limit = ctx.config.LOGIN_MAX_FAILURES_PER_RUT;
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(checkedWrong(route)));
    expect(statuses.slice(limit)).toEqual(Array(60 - limit).fill(429));
  });

  it("does not count refused attempts: hammering during the wait neither lengthens it nor locks the address for others", async () => {
    const route = routes.get(name)!;
    const account = await route.newAccount();
    const address = `${newBlock()}.1`;
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await route.attempt(account, false, address)).status);
    const pairLimit = ctx.config.LOGIN_MAX_FAILURES_PER_PAIR;
    expect(statuses.filter((status) => status === checkedWrong(route))).toHaveLength(pairLimit);
    // The first wait passes: the next guess is checked, and the wait after it is the second step of the back-off
    // (2 minutes), as if the 65 refused attempts had never been sent.
    const key = route.pairKey(account, address);
    await ctx.db.prisma.loginThrottle.update({ where: { key }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    expect((await route.attempt(account, false, address)).status).toBe(checkedWrong(route));
    const { lockedUntil } = await ctx.db.prisma.loginThrottle.findUniqueOrThrow({ where: { key } });
    const waitSeconds = (lockedUntil!.getTime() - Date.now()) / 1000;
    expect(waitSeconds).toBeGreaterThan(110);
    expect(waitSeconds).toBeLessThanOrEqual(120);
    // The other people at that address sign in as if nothing had happened.
    for (let i = 0; i < 5; i++) {
      const other = await route.newAccount();
      expect((await route.attempt(other, true, address)).status, `person ${i} at the same address`).toBe(200);
    }
  });
});

describe("a clinic's waiting room: one address for everyone", () => {
  it("serves 200 patients signing in within minutes, the usual typos among them, and a few who give up", async () => {
    const route = routes.get("patient login (REST new-login)")!;
    const address = `${newBlock()}.1`;
    const patients = await Promise.all(Array.from({ length: 200 }, () => insertAccount(ctx, "patient")));
    // One in four mistypes once, one in twelve twice, one in thirty three times (below the pair's limit of five).
    const typos = (i: number) => (i % 30 === 0 ? 3 : i % 12 === 0 ? 2 : i % 4 === 0 ? 1 : 0);
    const refused: string[] = [];
    // Ten at a time, as people arrive: the attempts of one person one after another, the people side by side.
    for (let start = 0; start < patients.length; start += 10) {
      await Promise.all(
        patients.slice(start, start + 10).map(async (patient, offset) => {
          const i = start + offset;
          for (let typo = 0; typo < typos(i); typo++) {
            const status = (await route.attempt(patient, false, address)).status;
            if (status !== 401) refused.push(`patient ${i}, typo ${typo + 1}: ${status}`);
          }
          const status = (await route.attempt(patient, true, address)).status;
          if (status !== 200) refused.push(`patient ${i}: ${status}`);
        }),
      );
      // Every twentieth arrival forgets the password for good: two tries, then the desk.
      const gaveUp = await insertAccount(ctx, "patient");
      for (let i = 0; i < 2; i++) await route.attempt(gaveUp, false, address);
    }
    const mistyped = patients.reduce((sum, _patient, i) => sum + typos(i), 0);
    expect(mistyped).toBeGreaterThan(ctx.config.LOGIN_MAX_FAILURES_PER_IP);
    expect(refused).toEqual([]);
  });
});
