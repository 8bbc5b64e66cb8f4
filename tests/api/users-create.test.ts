import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPasswordSchema } from "../../server/contract/validation.ts";
import { createUserAccount, temporaryPassword } from "../../server/features/users/user-create.service.ts";
import type { SessionUser } from "../../server/http/authenticate.ts";
import { AppError } from "../../server/lib/errors.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { rutOf } from "../helpers/fixtures.ts";

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
});
afterAll(() => ctx.close());

const create = (body: unknown, token = adminToken) =>
  ctx.app.inject({ method: "POST", url: api("/admin?clinic=hcs-rcr"), headers: bearer(token), payload: body as object });
const stored = (rut: string) =>
  ctx.db.prisma.user.findUnique({ where: { rut: rut.replace(/\./g, "") }, include: { patientClinics: true } });

describe("account creation by staff", () => {
  it("e-mails a temporary password that logs in to an account that must accept the terms and change it", async () => {
    const rut = rutOf(31_000_100);
    const email = "nueva.paciente@correo.cl";
    const response = await create({ rut, email, roleType: 2, rcrLink: "https://portalpacientes.clinicaportada.cl/admin/create-user" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe("Cuenta creada");
    expect(body.payload).toMatchObject({
      rut,
      email,
      roleType: 2,
      hasChangedPassword: false,
      dateTyc: null,
      patientClinics: ["portada-rcr"],
    });
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|argon2|tokenVersion|searchText/);

    const mail = await ctx.mail.waitFor(email);
    expect(mail.subject).toBe("Clínica Portada - Su cuenta en el Portal Pacientes");
    expect(mail.text).toContain("http://clinicaportada.localhost:4200/login");
    expect(mail.text).toContain(`Rut: ${rut}`);
    const password = /Contraseña temporal: (\S+)/.exec(mail.text)?.[1];
    expect(password).toBeDefined();
    expect(newPasswordSchema.safeParse(password).success).toBe(true);

    const login = await ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: { rut, password, clinic: "portada-rcr" } });
    expect(login.statusCode).toBe(200);
    expect(login.json().payload.user).toMatchObject({ rut, hasChangedPassword: false, dateTyc: null });
    expect((await stored(rut))?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("defaults the role type to patient and links staff mail to the staff login", async () => {
    const patientRut = rutOf(31_000_200);
    const patient = await create({ rut: patientRut, email: "por.defecto@correo.cl" });
    expect(patient.statusCode).toBe(200);
    expect(patient.json().payload.roleType).toBe(2);
    expect(patient.json().payload.patientClinics).toEqual(["maitenes"]);

    const staffEmail = "nuevo.admin@correo.cl";
    const staff = await create({ rut: rutOf(31_000_300), email: staffEmail, roleType: 0, rcrLink: "http://clinicasur.localhost:4200" });
    expect(staff.statusCode).toBe(200);
    expect((await ctx.mail.waitFor(staffEmail)).text).toContain("http://clinicasur.localhost:4200/admin-login");
  });

  it("refuses a RUT that already has an account with 409, without a second row or a mail", async () => {
    await ctx.mail.clear();
    const response = await create({ rut: "12345678-5", email: "otro.correo@correo.cl", roleType: 0 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ statusCode: 409, error: "CONFLICT", message: "Ya existe una cuenta con el Rut 12.345.678-5" });
    const rows = await ctx.db.prisma.user.findMany({ where: { rut: "12345678-5" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: "paciente@portalpacientes.cl", roleType: 2 });
    // The welcome mail is sent before the answer, and nothing was left running: no mail now means none at all.
    await ctx.app.deps.background.settled();
    expect(await ctx.mail.list("otro.correo@correo.cl")).toEqual([]);
    const audit = await ctx.db.prisma.auditEvent.findFirst({ where: { action: "user.create" }, orderBy: { id: "desc" } });
    expect(audit?.outcome).toBe("failed");
  });

  it.each([
    ["an invalid e-mail", { rut: rutOf(31_000_400), email: "sin-arroba" }, "La dirección de correo es incorrecta"],
    ["an empty e-mail", { rut: rutOf(31_000_400), email: "" }, "La dirección de correo es incorrecta"],
    ["an invalid RUT", { rut: "12.345.678-9", email: "a@correo.cl" }, "Rut inválido"],
    ["a missing RUT", { email: "a@correo.cl" }, "Rut inválido"],
    ["an unknown role type", { rut: rutOf(31_000_400), email: "a@correo.cl", roleType: 3 }, "Tipo de usuario inválido"],
  ])("refuses %s with 400 and a Spanish message", async (_label, body, message) => {
    const response = await create(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/admin"),
      headers: { ...bearer(adminToken), "content-type": "application/json" },
      payload: "{rut:",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("El cuerpo de la solicitud no es un JSON válido");
  });

  it("leaves no account behind when the mail cannot be sent", async () => {
    const admin = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "11111111-1" } })) as SessionUser;
    const failingMailer = {
      send: async () => {
        throw new AppError("BAD_GATEWAY", "No se pudo enviar el correo, por favor intente más tarde");
      },
      close: () => {},
    };
    const rut = rutOf(31_000_500);
    const attempt = createUserAccount(
      { ...ctx.app.deps, providers: { ...ctx.app.deps.providers, mail: failingMailer } },
      admin,
      { rut, email: "sin.correo@correo.cl" },
      { ip: "127.0.0.1" },
    );
    await expect(attempt).rejects.toMatchObject({ code: "BAD_GATEWAY" });
    expect(await stored(rut)).toBeNull();
    expect(await ctx.db.prisma.patientClinic.count({ where: { user: { rut: rut.replace(/\./g, "") } } })).toBe(0);
    // The same RUT can be created once the mail works again.
    expect((await create({ rut, email: "sin.correo@correo.cl" })).statusCode).toBe(200);
  });

  it("writes an audit row without secrets for the creation", async () => {
    const audit = await ctx.db.prisma.auditEvent.findFirst({ where: { action: "user.create", outcome: "ok" }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ actorRole: 0, resource: "user" });
    expect(audit?.after).toMatchObject({ rut: rutOf(31_000_500), roleType: 2 });
    expect(JSON.stringify(audit)).not.toMatch(/argon2|passwordHash|Contraseña/);
  });
});

describe("temporary passwords", () => {
  it("always meet the new-password rule and differ from each other", () => {
    const passwords = Array.from({ length: 200 }, () => temporaryPassword());
    for (const password of passwords) expect(newPasswordSchema.safeParse(password).success).toBe(true);
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});
