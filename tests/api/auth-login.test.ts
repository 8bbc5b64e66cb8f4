import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("patient and staff login", () => {
  it("logs the complete patient in and returns the user without secrets and an access token", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { ...demo.patient, clinic: "maitenes" },
    });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(payload.accessToken).toMatch(/^ey/);
    expect(payload.user).toMatchObject({ rut: "12.345.678-5", roleType: 2, hasChangedPassword: true, firstName: "María" });
    expect(payload.user.dateTyc).not.toBeNull();
    expect(JSON.stringify(payload)).not.toMatch(/passwordHash|argon2|tokenVersion/);
  });

  it("accepts the RUT without dots", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: "12345678-5", password: demo.patient.password },
    });
    expect(response.statusCode).toBe(200);
  });

  it("logs staff in through admin-login but refuses them on the patient login, with the same message", async () => {
    const staff = await ctx.app.inject({ method: "POST", url: api("/auth/admin-login"), payload: demo.admin });
    expect(staff.statusCode).toBe(200);
    expect(staff.json().payload.user.roleType).toBe(0);
    const wrongPortal = await ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: demo.admin });
    expect(wrongPortal.statusCode).toBe(401);
    expect(wrongPortal.json().message).toBe("El Rut o Contraseña ingresados son inválidos");
  });

  it("answers a wrong password and an unknown RUT with the same status and body", async () => {
    const wrong = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: demo.patient.rut, password: "Incorrecta1" },
    });
    const unknown = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: "9.999.999-3", password: "Incorrecta1" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().message).toBe("El Rut o Contraseña ingresados son inválidos");
  });

  it.each([
    ["a body that is not JSON", "{rut:", "El cuerpo de la solicitud no es un JSON válido"],
    ["an invalid RUT", JSON.stringify({ rut: "12.345.678-9", password: "Paciente2026" }), "Rut inválido"],
    ["a short password", JSON.stringify({ rut: demo.patient.rut, password: "corta" }), "La contraseña debe tener al menos 8 caracteres"],
    ["a RUT of the wrong type", JSON.stringify({ rut: 12345678, password: "Paciente2026" }), "Rut inválido"],
  ])("refuses %s with 400 and a Spanish message", async (_label, body, message) => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      headers: { "content-type": "application/json" },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("validates a fresh token and refuses a missing, forged or 'none' algorithm token", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const ok = await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(token) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toBe(true);
    const [header, body] = token.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${body}.`;
    for (const candidate of [undefined, `${header}.${body}.firma`, none, "basura"]) {
      const response = await ctx.app.inject({
        method: "GET",
        url: api("/auth/validate-token"),
        headers: candidate ? bearer(candidate) : {},
      });
      expect(response.statusCode).toBe(401);
    }
  });
});
