import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextInner } from "../../server/trpc/context.ts";
import { appRouter } from "../../server/trpc/router.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { PASSWORD_CHANGE_CLINIC } from "../../server/contract/clinics.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const changePassword = (token: string | null, body: unknown) =>
  ctx.app.inject({
    method: "POST",
    url: api(`/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`),
    headers: token ? bearer(token) : {},
    payload: body as object,
  });

const loginStatus = async (rut: string, password: string) =>
  (await ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: { rut, password } })).statusCode;

const userRow = (rut: string) => ctx.db.prisma.user.findUniqueOrThrow({ where: { rut } });

describe("POST /auth/change-password-user refusals", () => {
  let token: string;
  beforeAll(async () => {
    token = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
  });
  const request = (change: Record<string, unknown>) =>
    changePassword(token, {
      oldPassword: demo.incomplete.password,
      password: "NuevaClave77",
      passwordConfirmation: "NuevaClave77",
      rut: demo.incomplete.rut,
      ...change,
    });

  it.each([
    ["a wrong current password", { oldPassword: "Incorrecta99" }, "La contraseña actual es incorrecta"],
    ["a missing current password", { oldPassword: undefined }, "Campo Obligatorio"],
    ["an empty current password", { oldPassword: "" }, "Campo Obligatorio"],
    [
      "a new password without a digit",
      { password: "SinNumeros", passwordConfirmation: "SinNumeros" },
      "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    [
      "a new password without an upper-case letter",
      { password: "minuscula12", passwordConfirmation: "minuscula12" },
      "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    [
      "a new password of 7 characters",
      { password: "Corta12", passwordConfirmation: "Corta12" },
      "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    ["a missing new password", { password: undefined }, "Campo Obligatorio"],
    ["a confirmation that does not match", { passwordConfirmation: "NuevaClave78" }, "Las contraseñas no coinciden"],
    ["a missing confirmation", { passwordConfirmation: undefined }, "Campo Obligatorio"],
    ["a common password", { password: "Password123", passwordConfirmation: "Password123" }, "La contraseña es demasiado común, elija otra"],
    [
      "the current password as the new one",
      { password: demo.incomplete.password, passwordConfirmation: demo.incomplete.password },
      "La nueva contraseña debe ser distinta de la actual",
    ],
    ["an invalid RUT", { rut: "16.789.012-9" }, "Rut inválido"],
  ])("refuses %s with 400 and its Spanish message, keeping the password", async (_label, change, message) => {
    const response = await request(change);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: "BAD_REQUEST", message });
    expect((await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(token) })).statusCode).toBe(200);
  });

  it("refuses another user's RUT with 403 and leaves both passwords as they were", async () => {
    const victim = await userRow("12345678-5");
    const response = await request({ rut: demo.patient.rut });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("Solo puede cambiar su propia contraseña");
    expect(await userRow("12345678-5")).toEqual(victim);
    expect(await loginStatus(demo.incomplete.rut, demo.incomplete.password)).toBe(200);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api(`/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`),
      headers: { ...bearer(token), "content-type": "application/json" },
      payload: "{oldPassword:",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("El cuerpo de la solicitud no es un JSON válido");
  });

  it("refuses a change without a token with 401", async () => {
    const response = await changePassword(null, {
      oldPassword: demo.incomplete.password,
      password: "NuevaClave77",
      passwordConfirmation: "NuevaClave77",
    });
    expect(response.statusCode).toBe(401);
    expect(await loginStatus(demo.incomplete.rut, demo.incomplete.password)).toBe(200);
  });

  it("counts wrong current passwords as failed logins, so a stolen token cannot guess the password forever", async () => {
    const adminToken = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const guess = (oldPassword: string) =>
      changePassword(adminToken, { oldPassword, password: "AdminNueva2027", passwordConfirmation: "AdminNueva2027" });
    for (let i = 0; i < ctx.config.LOGIN_MAX_FAILURES_PER_PAIR; i++) expect((await guess(`Adivina${i}x`)).statusCode).toBe(400);
    const blocked = await guess(demo.admin.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Demasiados intentos fallidos\. Espere (un minuto|\d+ minutos) e intente nuevamente\.$/);
    expect(await loginStatus(demo.admin.rut, demo.admin.password)).not.toBe(200);
  });

  it("records the refused attempt with a wrong current password in the audit trail, without passwords", async () => {
    const user = await userRow("16789012-1");
    await request({ oldPassword: "OtraIncorrecta5" });
    const event = await ctx.db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "account.password-change", actorId: user.id },
      orderBy: { id: "desc" },
    });
    expect(event).toMatchObject({ outcome: "denied", resource: "user", resourceId: String(user.id) });
    expect(JSON.stringify(event)).not.toMatch(/OtraIncorrecta5|NuevaClave77|Paciente2026/);
  });
});

describe("POST /auth/change-password-user success", () => {
  it("changes the password, voids every earlier token and returns a fresh one that works", async () => {
    const oldToken = await ctx.login(demo.patient.rut, demo.patient.password);
    const otherSession = await ctx.login(demo.patient.rut, demo.patient.password);
    const response = await changePassword(oldToken, {
      oldPassword: demo.patient.password,
      password: "OtraClave2026",
      passwordConfirmation: "OtraClave2026",
      rut: "12345678-5",
    });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(payload.user).toMatchObject({ rut: "12.345.678-5", hasChangedPassword: true, roleType: 2 });
    expect(payload.accessToken).toMatch(/^ey/);
    expect(JSON.stringify(payload)).not.toMatch(/passwordHash|argon2|tokenVersion|OtraClave2026/);

    for (const stale of [oldToken, otherSession]) {
      expect((await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(stale) })).statusCode).toBe(401);
      expect((await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(stale) })).statusCode).toBe(401);
    }
    const fresh = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(payload.accessToken) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().payload.rut).toBe("12.345.678-5");
    expect(
      (await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(payload.accessToken) })).statusCode,
    ).toBe(200);

    expect(await loginStatus(demo.patient.rut, "OtraClave2026")).toBe(200);
    expect(await loginStatus(demo.patient.rut, demo.patient.password)).toBe(401);
    expect((await userRow("12345678-5")).passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("sets hasChangedPassword for the first-login patient, without a RUT in the body", async () => {
    expect((await userRow("15555555-6")).hasChangedPassword).toBe(false);
    const token = await ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
    const response = await changePassword(token, {
      oldPassword: demo.firstLogin.password,
      password: "MiPrimeraClave9",
      passwordConfirmation: "MiPrimeraClave9",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.user).toMatchObject({ rut: "15.555.555-6", hasChangedPassword: true, dateTyc: null });
    expect((await userRow("15555555-6")).hasChangedPassword).toBe(true);
    const me = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(response.json().payload.accessToken) });
    expect(me.json().payload.hasChangedPassword).toBe(true);

    const user = await userRow("15555555-6");
    const event = await ctx.db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "account.password-change", actorId: user.id },
      orderBy: { id: "desc" },
    });
    expect(event.outcome).toBe("ok");
    expect(JSON.stringify(event)).not.toMatch(/MiPrimeraClave9|Temporal2026/);
  });

  it("lets a staff user change their own password", async () => {
    const token = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    const response = await changePassword(token, {
      oldPassword: demo.executive.password,
      password: "Ejecutiva2027",
      passwordConfirmation: "Ejecutiva2027",
      rut: demo.executive.rut,
    });
    expect(response.statusCode).toBe(200);
    expect(
      (
        await ctx.app.inject({
          method: "POST",
          url: api("/auth/admin-login"),
          payload: { rut: demo.executive.rut, password: "Ejecutiva2027" },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("changes the password over tRPC with the same rules and a fresh token", async () => {
    const token = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    const caller = createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "127.0.0.1" }, `Bearer ${token}`));
    await expect(
      caller.account.changePassword({ oldPassword: "Incorrecta99", password: "TrpcClave2026", passwordConfirmation: "TrpcClave2026" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "La contraseña actual es incorrecta",
    });
    const result = await caller.account.changePassword({
      oldPassword: demo.incomplete.password,
      password: "TrpcClave2026",
      passwordConfirmation: "TrpcClave2026",
    });
    expect(result.user.hasChangedPassword).toBe(true);
    expect((await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(token) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(result.accessToken) })).statusCode).toBe(200);
  });
});
