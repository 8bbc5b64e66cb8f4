import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { PASSWORD_CHANGE_CLINIC } from "../../server/contract/clinics.ts";

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext();
  token = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const endpoints = [
  { method: "POST", url: "/auth/new-login" },
  { method: "POST", url: "/auth/admin-login" },
  { method: "POST", url: "/auth/request-reset-password-rut" },
  { method: "POST", url: "/auth/new-password" },
  { method: "PATCH", url: "/auth/user-edit" },
  { method: "POST", url: `/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}` },
] as const;

const junkBodies: Array<[string, string, string]> = [
  ["broken JSON", '{"rut":', "application/json"],
  ["a JSON array", "[1,2,3]", "application/json"],
  ["JSON null", "null", "application/json"],
  ["a JSON string", '"hola"', "application/json"],
  ["objects in place of strings", JSON.stringify({ rut: { $ne: 1 }, password: ["x"], email: 5, firstName: {} }), "application/json"],
  ["a 100 kB RUT", JSON.stringify({ rut: "1".repeat(100_000), password: "x".repeat(100_000) }), "application/json"],
  ["form-encoded data", "rut=1&password=2", "application/x-www-form-urlencoded"],
  ["plain text", "hola", "text/plain"],
];

describe("junk input on the identity endpoints", () => {
  for (const endpoint of endpoints) {
    it.each(junkBodies)(
      `${endpoint.method} ${endpoint.url} answers %s with a 4xx and a Spanish message, never a 500`,
      async (_label, body, contentType) => {
        const response = await ctx.app.inject({
          method: endpoint.method,
          url: api(endpoint.url),
          payload: body,
          headers: { "content-type": contentType, ...bearer(token) },
        });
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        const message: string = response.json().message;
        expect(message.length).toBeGreaterThan(3);
        expect(message).not.toMatch(/expected|invalid input|undefined|prisma|stack/i);
      },
    );
  }

  it("leaves the patient's data unchanged after all of that", async () => {
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    expect(user).toMatchObject({ firstName: "María", email: "paciente@portalpacientes.cl", roleType: 2 });
    await ctx.login(demo.patient.rut, demo.patient.password);
  });

  it("answers an unknown API path with a Spanish 404", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/no-existe") });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("Recurso no encontrado");
  });
});
