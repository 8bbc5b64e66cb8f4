import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, demo } from "../helpers/test-app.ts";
import { restEndpoints, trpcEndpoints, type Endpoint, type Role } from "./support/endpoints.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";

// Issue 23, findings 3 and 4, as families over every endpoint: a token whose session was ended by 'Cerrar sesión' opens
// nothing anywhere, and guessing one RUT's password from many addresses buys no more attempts than from one.

let security: SecurityContext;
beforeAll(async () => {
  security = await createSecurityContext({ LOGIN_MAX_FAILURES_PER_IP: "100000" });
});
afterAll(() => security.ctx.close());

const signedIn = (endpoint: Endpoint) => endpoint.access !== undefined && !["public", "signed"].includes(endpoint.access);

describe("a logged-out session", () => {
  it.each(["patient", "executive", "admin"] as const)("answers 401 on every signed-in endpoint for a %s, REST and tRPC", async (role) => {
    const account = demo[role];
    const token = await security.ctx.login(account.rut, account.password, role === "patient" ? "patient" : "staff");
    const out = await security.ctx.app.inject({ method: "POST", url: api("/auth/logout"), headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const endpoints = [...restEndpoints(security.ctx.app), ...trpcEndpoints()].filter(signedIn);
    expect(endpoints.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      const answer = await security.call(endpoint, role as Role, { token });
      if (answer.statusCode !== 401) failures.push(`${endpoint.name}: ${answer.statusCode} ${answer.body.slice(0, 100)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("guessing one RUT's password from many addresses (the probe's 72; throttle-shared-addresses.test.ts has the family)", () => {
  it("checks no more passwords than the per-RUT limit allows, whatever the number of addresses", async () => {
    const limit = security.ctx.config.LOGIN_MAX_FAILURES_PER_RUT;
    const checked: number[] = [];
    for (let i = 0; i < 72; i++) {
      const answer = await security.ctx.app.inject({
        method: "POST",
        url: api("/auth/new-login"),
        payload: { rut: demo.incomplete.rut, password: `Adivina${i}x` },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      expect([401, 429]).toContain(answer.statusCode);
      if (answer.statusCode === 401) checked.push(i);
    }
    // Exactly the limit, in sequence: the guess that reaches it starts the wait (issue 42, point 8: it was one more).
    expect(checked).toHaveLength(limit);
  });
});
