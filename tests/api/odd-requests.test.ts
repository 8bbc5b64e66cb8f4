import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
let admin: string;
let patient: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const spanishOnly = (message: string) =>
  expect(message).not.toMatch(/expected|invalid|unexpected|procedure|missing|unsupported|not found|FST_/i);

describe("odd requests get a Spanish 4xx, never a 500", () => {
  it("refuses NUL characters in a query, a JSON body and a tRPC input", async () => {
    const query = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users?page=1&param=%00"), headers: bearer(admin) });
    const body = await ctx.app.inject({
      method: "PATCH",
      url: api("/auth/user-edit"),
      headers: bearer(patient),
      payload: { email: "a\u0000b@correo.cl" },
    });
    const trpc = await ctx.app.inject({
      method: "GET",
      url: `/trpc/users.list?input=${encodeURIComponent(JSON.stringify({ param: "\u0000" }))}`,
      headers: bearer(admin),
    });
    for (const response of [query, body, trpc]) {
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain("La solicitud contiene caracteres no permitidos");
    }
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    expect(user.email).toBe("paciente@portalpacientes.cl");
  });

  it("answers malformed and oversized addresses in Spanish", async () => {
    const longId = await ctx.app.inject({ method: "GET", url: api(`/admin/${"9".repeat(150)}`), headers: bearer(admin) });
    const badEncoding = await ctx.app.inject({ method: "GET", url: api("/admin/%E0%A4%A"), headers: bearer(admin) });
    for (const response of [longId, badEncoding]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      spanishOnly(response.json().message);
    }
  });

  it("answers tRPC's own errors (malformed input, unknown procedure, wrong method) in Spanish", async () => {
    const malformed = await ctx.app.inject({ method: "GET", url: "/trpc/clinics.settings?input=%7Bmal", headers: bearer(patient) });
    const unknown = await ctx.app.inject({ method: "GET", url: "/trpc/no.existe", headers: bearer(patient) });
    const wrongMethod = await ctx.app.inject({ method: "GET", url: "/trpc/account.updateProfile", headers: bearer(patient) });
    const missingFields = await ctx.app.inject({ method: "POST", url: "/trpc/auth.login", payload: { portal: "patient" } });
    for (const response of [malformed, unknown, wrongMethod, missingFields]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      spanishOnly(response.json().error.message);
    }
    expect(missingFields.json().error.message).toBe("Rut inválido");
  });

  it("marks tRPC answers, which carry personal data, as not cacheable", async () => {
    const me = await ctx.app.inject({ method: "GET", url: "/trpc/account.me", headers: bearer(patient) });
    expect(me.statusCode).toBe(200);
    expect(me.headers["cache-control"]).toBe("no-store");
  });
});
