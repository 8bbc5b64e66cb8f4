import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatRut } from "../../server/contract/rut.ts";
import { api, bearer, createTestContext, type TestContext } from "../helpers/test-app.ts";
import { PASSWORD_CHANGE_CLINIC } from "../../server/contract/clinics.ts";
import { plainRutOf } from "../helpers/fixtures.ts";

// The first extra seeded patient (see server/db/seed.ts), so the demo accounts keep their passwords.
const patientRut = plainRutOf(17_000_000);
const patient = { rut: formatRut(patientRut), email: "paciente1@correo.cl", password: "Paciente2026" };
const unknownRut = plainRutOf(9_999_999);

let ctx: TestContext;
beforeAll(async () => {
  // Many links for one account in this file; the hourly cap has its own test.
  ctx = await createTestContext({ RESET_MAX_REQUESTS_PER_HOUR: "100" });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.mail.clear());

const requestReset = (body: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "POST", url: api("/auth/request-reset-password-rut"), payload: body, headers });

async function resetLink(rcrLink = "http://clinicasur.localhost:4200/recover-password", headers: Record<string, string> = {}) {
  const response = await requestReset({ rut: patient.rut, rcrLink }, headers);
  expect(response.statusCode).toBe(200);
  const mail = await ctx.mail.waitFor(patient.email);
  await ctx.mail.clear();
  const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  return { link, token: link.searchParams.get("token")!, mail };
}

const setPassword = (token: string, body: object) =>
  ctx.app.inject({ method: "POST", url: api("/auth/new-password"), payload: { rut: patient.rut, ...body }, headers: bearer(token) });

describe("password recovery", () => {
  it("answers the same for an unknown RUT and sends no mail", async () => {
    const known = await requestReset({ rut: patient.rut, rcrLink: "http://localhost:4200" });
    const unknown = await requestReset({ rut: unknownRut, rcrLink: "http://localhost:4200" });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    await ctx.mail.waitFor(patient.email);
    // Both requests' background work (the account look-up, the mail for the known one) has finished.
    await ctx.app.deps.background.settled();
    expect((await ctx.mail.list()).map((m) => m.to)).toEqual([patient.email]);
  });

  it("refuses an invalid RUT with 400 'Rut inválido'", async () => {
    const response = await requestReset({ rut: "12.345.678-0" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Rut inválido");
  });

  it("mails a link to the clinic's own configured address, whatever Host header comes in", async () => {
    const { link, mail } = await resetLink("http://clinicasur.localhost:4200/login", { host: "evil.example" });
    expect(link.origin).toBe("http://clinicasur.localhost:4200");
    expect(link.pathname).toBe("/recover-password");
    expect(link.searchParams.get("rut")).toBe(patient.rut);
    expect(link.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.subject).toContain("Hospital Clínico del Sur");
    const foreign = await resetLink("https://evil.example/recover-password");
    expect(foreign.link.origin).toBe("http://clinicamaitenes.localhost:4200");
  });

  it("sets the new password once: old password and old sessions stop working, the link cannot be reused", async () => {
    const oldSession = await ctx.login(patient.rut, patient.password);
    const { token } = await resetLink();
    const done = await setPassword(token, { password: "NuevaClave2026", passwordConfirmation: "NuevaClave2026" });
    expect(done.statusCode).toBe(200);

    const validate = await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(oldSession) });
    expect(validate.statusCode).toBe(401);
    const oldLogin = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: patient.rut, password: patient.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    patient.password = "NuevaClave2026";
    await ctx.login(patient.rut, patient.password);

    const reuse = await setPassword(token, { password: "OtraClave2026", passwordConfirmation: "OtraClave2026" });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toMatch(/no es válido o ha expirado/);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: patientRut } });
    expect(user.passwordHash.startsWith("$argon2id$")).toBe(true);
  });

  it("refuses an expired link", async () => {
    const { token } = await resetLink();
    await ctx.db.prisma.passwordResetToken.updateMany({ where: { usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await setPassword(token, { password: "Expirada2026", passwordConfirmation: "Expirada2026" });
    expect(response.statusCode).toBe(400);
  });

  it("voids an older link when a newer one is requested", async () => {
    const older = await resetLink();
    const newer = await resetLink();
    expect((await setPassword(older.token, { password: "Antigua2026x", passwordConfirmation: "Antigua2026x" })).statusCode).toBe(400);
    expect((await setPassword(newer.token, { password: "Reciente2026", passwordConfirmation: "Reciente2026" })).statusCode).toBe(200);
    patient.password = "Reciente2026";
  });

  it("refuses a link used with another RUT", async () => {
    const { token } = await resetLink();
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-password"),
      payload: { rut: "12.345.678-5", password: "Ajena20266", passwordConfirmation: "Ajena20266" },
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    [
      "a weak password",
      { password: "debil", passwordConfirmation: "debil" },
      "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    ["different passwords", { password: "Segura2026", passwordConfirmation: "Segura2027" }, "Las contraseñas no coinciden"],
    ["a missing password", {}, "Campo Obligatorio"],
    ["a common password", { password: "Password123", passwordConfirmation: "Password123" }, "La contraseña es demasiado común, elija otra"],
  ])("refuses %s with its Spanish message and keeps the link usable", async (_label, body, message) => {
    const { token } = await resetLink();
    const response = await setPassword(token, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    const stillValid = await setPassword(token, { password: "Valida20266", passwordConfirmation: "Valida20266" });
    expect(stillValid.statusCode).toBe(200);
    patient.password = "Valida20266";
  });

  it("voids a pending link when the password is changed in session", async () => {
    const { token } = await resetLink();
    const session = await ctx.login(patient.rut, patient.password);
    const changed = await ctx.app.inject({
      method: "POST",
      url: api(`/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`),
      headers: bearer(session),
      payload: { oldPassword: patient.password, password: "EnSesion2026", passwordConfirmation: "EnSesion2026", rut: patient.rut },
    });
    expect(changed.statusCode).toBe(200);
    patient.password = "EnSesion2026";
    const late = await setPassword(token, { password: "Atrasada2026", passwordConfirmation: "Atrasada2026" });
    expect(late.statusCode).toBe(400);
  });
});
