import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/test-app.ts";
import { insertAccount, loginRoutes, signInFully, type LoginRoute, LOGIN_ROUTE_NAMES } from "./support/login-routes.ts";

// Issue 42, point 7, as a family over every login-like route (support/login-routes.ts): while someone guesses an
// account's password or codes from many addresses, a browser that completed a full login of that account before (its
// device cookie, OWASP's "device cookies") still signs its owner in, the second step included; any other browser waits.

let ctx: TestContext;
let routes: Map<string, LoginRoute>;
beforeAll(async () => {
  ctx = await createTestContext({ TRUST_PROXY_HOPS: "0" });
  routes = new Map(loginRoutes(ctx).map((route) => [route.name, route]));
});
afterAll(() => ctx.close());

const routeNames = LOGIN_ROUTE_NAMES;
let block = 0;
const newBlock = () => `10.43.${(block += 1)}`;

describe.each(routeNames)("%s during an attack on the account", (name) => {
  it("lets the owner's known browser finish from a new address, and holds back every other browser", async () => {
    const route = routes.get(name)!;
    const account = await route.newAccount();
    const home = newBlock();
    const cookie = await signInFully(ctx, account, `${home}.1`);
    expect(cookie).toMatch(/^pp_dispositivo_/);
    const attack = newBlock();
    for (let i = 1; i <= ctx.config.LOGIN_MAX_FAILURES_PER_RUT + 10; i++) await route.attempt(account, false, `${attack}.${i}`);
    // The account is past its limit: a browser it does not know waits, with the right secret and from a fresh address…
    expect((await route.attempt(account, true, `${newBlock()}.1`)).status).toBe(429);
    // …and the owner's browser, from the café's Wi-Fi, finishes.
    expect((await route.attempt(account, true, `${newBlock()}.1`, cookie)).status).toBe(200);
    // Another account's device cookie is no key to this one.
    const stranger = await signInFully(ctx, await route.newAccount(), `${home}.2`);
    expect((await route.attempt(account, true, `${newBlock()}.1`, stranger)).status).toBe(429);
  });
});

describe("the device cookie", () => {
  it("is given only when the whole login is done: a password step still awaiting its code sets none", async () => {
    const account = await insertAccount(ctx, "staff");
    const route = routes.get("staff login (REST admin-login)")!;
    const first = await route.attempt(account, true, `${newBlock()}.1`);
    expect(first.status).toBe(200);
    // Whoever knows the password alone must not collect cookies that would exempt their code guesses from the limit.
    expect(first.deviceCookie).toBeUndefined();
    expect(await signInFully(ctx, account, `${newBlock()}.1`)).toMatch(/^pp_dispositivo_/);
  });
});
