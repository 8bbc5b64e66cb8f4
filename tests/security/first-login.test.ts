import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { answerMessage } from "./support/answers.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";
import { admits, restEndpoints, trpcEndpoints, type Endpoint } from "./support/endpoints.ts";

// Issue 23, finding 2: a patient holding the mailed temporary password read results without ever changing it or
// accepting the terms; the first-login rules were only in the web app. Until both are done, a patient reaches only the
// journey's endpoints (declared `firstLogin` on the route or procedure), over REST and tRPC.

const termsMessage = "Debe aceptar los términos y condiciones antes de continuar";
const passwordMessage = "Debe cambiar su contraseña temporal antes de continuar";

describe("a patient on the temporary password who has not accepted the terms (15.555.555-6)", () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
  });
  afterAll(() => ctx.close());

  const get = (path: string) => ctx.app.inject({ method: "GET", url: path, headers: bearer(token) });

  it("gets 403 with a Spanish message for laboratory and imaging results, REST and tRPC (as found)", async () => {
    const answers = [
      await get(api("/orders?fecha_inicio=01/01/2026&fecha_termino=25/11/2026&clinic=maitenes")),
      await get(api("/orders-imaging?dateFrom=2026-01-01&dateTo=2026-11-25")),
      await get(`/trpc/laboratory.orders?input=${encodeURIComponent(JSON.stringify({ from: "2026-01-01", to: "2026-11-25" }))}`),
      await get(`/trpc/bills.mine?input=${encodeURIComponent(JSON.stringify({ page: 1 }))}`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answerMessage(answer)).toBe(termsMessage);
    }
  });

  it("still walks the journey: validate the token, read 'Mi cuenta', accept the terms", async () => {
    expect((await get(api("/auth/validate-token"))).statusCode).toBe(200);
    expect((await get(api("/auth/me"))).statusCode).toBe(200);
    expect((await get(api("/term-conditions/validate-tyc"))).statusCode).toBe(200);
    const accepted = await ctx.app.inject({ method: "POST", url: api("/term-conditions/accept"), headers: bearer(token) });
    expect(accepted.statusCode).toBe(200);
  });

  it("after accepting the terms, is still refused until the temporary password is replaced, then reaches everything", async () => {
    const refused = await get(api("/orders-imaging?dateFrom=2026-01-01&dateTo=2026-11-25"));
    expect(refused.statusCode).toBe(403);
    expect(answerMessage(refused)).toBe(passwordMessage);

    const changed = await ctx.app.inject({
      method: "POST",
      url: api("/auth/change-password-user?clinic=hcs-rcr"),
      headers: bearer(token),
      payload: { oldPassword: demo.firstLogin.password, password: "Nuevaclave2026", passwordConfirmation: "Nuevaclave2026" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json().payload.accessToken as string;
    const allowed = await ctx.app.inject({
      method: "GET",
      url: api("/orders-imaging?dateFrom=2026-01-01&dateTo=2026-11-25"),
      headers: bearer(fresh),
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});

describe("every endpoint a patient may call, for a patient who has not finished the first login", () => {
  let security: SecurityContext;
  let pendingToken: string;
  beforeAll(async () => {
    security = await createSecurityContext();
    pendingToken = await security.ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
  });
  afterAll(() => security.ctx.close());

  it("answers 403 unless the endpoint is declared part of the first-login journey, and never 5xx", async () => {
    const endpoints: Endpoint[] = [...restEndpoints(security.ctx.app), ...trpcEndpoints()].filter(
      (endpoint) => endpoint.access && endpoint.access !== "public" && endpoint.access !== "signed" && admits(endpoint.access, "patient"),
    );
    const journey = endpoints.filter((endpoint) => endpoint.firstLogin).map((endpoint) => endpoint.name);
    expect(journey.length).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      // Logout is part of the journey, and ending this session would sign the rest of the loop out.
      if (/logout/.test(endpoint.path)) continue;
      const answer = await security.callAs(endpoint, pendingToken);
      const where = `${endpoint.name}: ${answer.statusCode} ${answer.body.slice(0, 100)}`;
      if (answer.statusCode >= 500) failures.push(`5xx — ${where}`);
      else if (endpoint.firstLogin && (answer.statusCode === 401 || answer.statusCode === 403)) failures.push(`journey refused — ${where}`);
      // Walking the journey's endpoints accepts the terms on the way: then the password is what is missing.
      else if (!endpoint.firstLogin && (answer.statusCode !== 403 || ![termsMessage, passwordMessage].includes(answerMessage(answer))))
        failures.push(`not refused — ${where}`);
    }
    expect(failures).toEqual([]);
  });
});
