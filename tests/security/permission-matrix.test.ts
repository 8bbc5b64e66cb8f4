import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admits, restEndpoints, roles, takesId, trpcEndpoints, type Endpoint } from "./support/endpoints.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";
import { answerMessage } from "./support/answers.ts";
import { demo } from "../helpers/test-app.ts";

// The permission matrix: every REST route and tRPC procedure × {none, patient, executive, admin}, each asking for
// someone else's ids. Generated from the route table and the router, so a route added later is checked too.

let security: SecurityContext;
let endpoints: Endpoint[];
beforeAll(async () => {
  security = await createSecurityContext();
  endpoints = [...restEndpoints(security.ctx.app), ...trpcEndpoints()];
});
afterAll(() => security.ctx.close());

describe("every endpoint declares who may call it", () => {
  it("REST routes have config.access and tRPC procedures meta.access", () => {
    const undeclared = endpoints.filter((endpoint) => !endpoint.access).map((endpoint) => endpoint.name);
    expect(undeclared).toEqual([]);
    expect(restEndpoints(security.ctx.app).length).toBeGreaterThanOrEqual(20);
    expect(trpcEndpoints().length).toBeGreaterThanOrEqual(15);
  });
});

describe("permission matrix", () => {
  it("answers each role as the declaration says: 401 signed out, 403 the wrong role, never 5xx, others' ids unseen", async () => {
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      const access = endpoint.access ?? "admin";
      for (const role of roles) {
        const answer = await security.call(endpoint, role);
        const where = `${endpoint.name} as ${role}: ${answer.statusCode} ${answer.body.slice(0, 120)}`;
        if (answer.statusCode >= 500) failures.push(`5xx — ${where}`);
        else if (!admits(access, role)) {
          const expected = role === "none" ? 401 : 403;
          if (answer.statusCode !== expected) failures.push(`expected ${expected} — ${where}`);
        } else {
          // A signed link route refuses everyone here: the matrix has no valid link (its feature's tests sign one).
          const refused = answer.statusCode === 401 || answer.statusCode === 403;
          if (refused && access !== "signed") failures.push(`refused an admitted role — ${where}`);
          // Someone else's id: only an admin sees every user; anyone else gets the answer of a missing one.
          if (takesId(endpoint) && role !== "admin" && answer.statusCode < 300) failures.push(`saw someone else's id — ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("an executive's request for a user outside their clinics answers exactly like a missing user", async () => {
    const byId = endpoints.filter((endpoint) => takesId(endpoint) && endpoint.access === "staff" && endpoint.method === "GET");
    expect(byId.length).toBeGreaterThan(0);
    for (const endpoint of byId) {
      const outside = await security.call(endpoint, "executive");
      const missing = await security.call(endpoint, "executive", { id: 2_000_000_000 });
      expect(outside.statusCode, endpoint.name).toBe(404);
      expect(outside.body, endpoint.name).toBe(missing.body);
    }
  });
});

// Issue 27: the password alone of a person with a second factor opens a session that reaches only the second step.
describe("permission matrix of password-only staff sessions (second factor still due)", () => {
  it("answers 401 on every signed-in endpoint, REST and tRPC, but the second step and logout; never 5xx", async () => {
    const open = endpoints.filter((endpoint) => endpoint.secondFactor).map((endpoint) => endpoint.name);
    expect(open.sort()).toEqual([
      "POST /api/rcr/v1/auth/logout",
      "POST /api/rcr/v1/auth/verify-otp",
      "trpc auth.logout (mutation)",
      "trpc auth.verifyOtp (mutation)",
    ]);
    const failures: string[] = [];
    for (const role of ["executive", "admin"] as const) {
      const { rut, password } = { executive: demo.executive, admin: demo.admin }[role];
      const step = await security.ctx.passwordStep(rut, password, "staff");
      expect(step.secondFactor).toBe("verify");
      for (const endpoint of endpoints) {
        if (!endpoint.access || endpoint.access === "public" || endpoint.access === "signed" || endpoint.secondFactor) continue;
        const answer = await security.call(endpoint, role, { token: step.accessToken });
        const where = `${endpoint.name} as ${role} (password only): ${answer.statusCode} ${answer.body.slice(0, 120)}`;
        if (answer.statusCode >= 500) failures.push(`5xx — ${where}`);
        else if (answer.statusCode !== 401) failures.push(`expected 401 — ${where}`);
        else if (answerMessage(answer) !== "Ingrese el código de verificación para continuar") failures.push(`message — ${where}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
