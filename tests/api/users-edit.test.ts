import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { insertUser, rutOf, userIdByRut } from "../helpers/fixtures.ts";

let ctx: TestContext;
let adminToken: string;
const ids = { patient: 0, executive: 0, spareExecutive: 0 };
const spareExecutive = { rut: rutOf(32_000_100), password: "Ejecutivo2026c" };

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  ids.patient = await userIdByRut(ctx.db.prisma, demo.patient.rut);
  ids.executive = await userIdByRut(ctx.db.prisma, demo.executive.rut);
  ids.spareExecutive = await insertUser(ctx.db.prisma, {
    ...spareExecutive,
    email: "repuesto@correo.cl",
    roleType: 1,
    clinics: ["hcs-rcr", "lircay-rcr"],
  });
});
afterAll(() => ctx.close());

const inject = (method: "GET" | "POST" | "PATCH", path: string, payload?: unknown, token = adminToken) =>
  ctx.app.inject({ method, url: api(path), headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

describe("staff edit of a user", () => {
  it("saves personal data, keeps the search text current and ignores fields that are not editable", async () => {
    const response = await inject("PATCH", `/admin/${ids.patient}`, {
      firstName: "Mariela",
      secondName: "",
      email: "mariela@correo.cl",
      birthDate: "1976-04-11",
      rut: "11.111.111-1",
      id: 1,
      hasChangedPassword: false,
      passwordHash: "x",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({
      id: ids.patient,
      rut: demo.patient.rut,
      firstName: "Mariela",
      secondName: null,
      email: "mariela@correo.cl",
      birthDate: "1976-04-11",
      hasChangedPassword: true,
    });
    const row = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.patient } });
    expect(row.searchText).toContain("mariela@correo.cl");
    expect(row.searchText).toContain("mariela gonzález pérez");
    expect(row.searchText).not.toContain("maría");
    const found = await inject("GET", "/admin/filter/users?param=MARIELA");
    expect(found.json().usersList.map((u: { id: number }) => u.id)).toEqual([ids.patient]);
  });

  it("lets staff empty the optional personal data of a patient", async () => {
    const response = await inject("PATCH", `/admin/${ids.patient}`, { phoneNumber: "", birthDate: null });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ phoneNumber: null, birthDate: null });
  });

  it.each([
    ["an invalid e-mail", { email: "mariela@" }, "Email inválido"],
    ["an empty e-mail", { email: "" }, "Email inválido"],
    ["a name with digits", { lastName: "G0nzález" }, "Solo letras"],
    ["a name that is not text", { firstName: 12 }, "Solo letras"],
    ["a phone with letters", { phoneNumber: "+56 9 abc" }, "Solo caracteres numéricos"],
    ["a birth date in the future", { birthDate: "2999-01-01" }, "La fecha es inválida"],
    ["an impossible birth date", { birthDate: "1980-02-30" }, "La fecha es inválida"],
    ["an unknown role type", { roleType: 7 }, "Tipo de usuario inválido"],
  ])("refuses %s with 400 and changes nothing", async (_label, body, message) => {
    const before = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.patient } });
    const response = await inject("PATCH", `/admin/${ids.patient}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.patient } })).toEqual(before);
  });

  it.each(["abc", "1.5", "-3", "0", "99999999999"])("answers 400, not 500, to the id %s", async (id) => {
    for (const [method, path] of [
      ["GET", `/admin/${id}`],
      ["PATCH", `/admin/${id}`],
      ["GET", `/admin/privileges/${id}`],
    ] as const) {
      const response = await inject(method, path, method === "PATCH" ? { firstName: "Ana" } : undefined);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Identificador de usuario inválido");
    }
  });

  it("does not route the static admin paths to /admin/:id", async () => {
    expect((await inject("GET", "/admin/filter/users")).json()).toHaveProperty("usersList");
    expect((await inject("GET", `/admin/privileges/${ids.executive}`)).json().payload[0]).toHaveProperty("id_clinic");
    const reset = await inject("POST", "/admin/resetPassword?clinic=hcs-rcr", {
      rut: demo.firstLogin.rut,
      password: "x",
      passwordConfirmation: "x",
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toBe("El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número");
  });

  it("refuses bodies that are not JSON objects with 400 and a Spanish message", async () => {
    for (const [method, path] of [
      ["PATCH", `/admin/${ids.patient}`],
      ["POST", "/admin"],
      ["POST", "/admin/resetPassword"],
    ] as const) {
      for (const body of ['["a"]', '"texto"', "42"]) {
        const response = await ctx.app.inject({
          method,
          url: api(path),
          headers: { ...bearer(adminToken), "content-type": "application/json" },
          payload: body,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe("El cuerpo de la solicitud debe ser un objeto JSON");
      }
    }
  });

  it("answers 404 for a missing user", async () => {
    const response = await inject("PATCH", "/admin/987654", { firstName: "Ana" });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("Usuario no encontrado");
  });
});

describe("role changes and privileges", () => {
  it("clears the clinic privileges when an executive is saved with another role", async () => {
    const response = await inject("PATCH", `/admin/${ids.spareExecutive}`, { roleType: 2 });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ roleType: 2, privileges: [] });
    expect(await ctx.db.prisma.privilege.count({ where: { userId: ids.spareExecutive } })).toBe(0);
    const audit = await ctx.db.prisma.auditEvent.findFirst({
      where: { action: "user.update", resourceId: String(ids.spareExecutive) },
      orderBy: { id: "desc" },
    });
    expect(audit).toMatchObject({ outcome: "ok", actorRole: 0 });
    expect(audit?.before).toMatchObject({ roleType: 1, privileges: ["hcs-rcr", "lircay-rcr"] });
    expect(audit?.after).toMatchObject({ roleType: 2, privileges: [] });
    expect(JSON.stringify(audit)).not.toMatch(/argon2|passwordHash/);
    expect(await ctx.login(spareExecutive.rut, spareExecutive.password, "patient")).toMatch(/^ey/);
  });

  it("makes a user an executive and assigns clinics, refusing unknown clinics and non-executives", async () => {
    const path = `/admin/privileges-array?id_user=${ids.spareExecutive}`;
    const notExecutive = await inject("POST", path, [{ codeClinicStr: "hcs-rcr", id_permission: 1, id_user: ids.spareExecutive }]);
    expect(notExecutive.statusCode).toBe(400);
    expect(notExecutive.json().message).toBe("Solo los ejecutivos pueden tener clínicas asignadas");

    expect((await inject("PATCH", `/admin/${ids.spareExecutive}`, { roleType: 1 })).statusCode).toBe(200);
    const unknown = await inject("POST", path, [{ codeClinicStr: "hcs-rcr" }, { codeClinicStr: "clinica-x", id_permission: 1 }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("Clínica desconocida: clinica-x");
    expect(await ctx.db.prisma.privilege.count({ where: { userId: ids.spareExecutive } })).toBe(0);

    const saved = await inject("POST", path, [
      { codeClinicStr: "portada-rcr", id_permission: 1, id_user: ids.spareExecutive },
      { codeClinicStr: "portada-rcr", id_permission: 1, id_user: ids.spareExecutive },
      { codeClinicStr: "hcs-rcr", id_permission: 0, id_user: ids.spareExecutive },
    ]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload).toEqual([
      { id_clinic: 7, codeClinicStr: "hcs-rcr", id_permission: 1, id_user: ids.spareExecutive },
      { id_clinic: 9, codeClinicStr: "portada-rcr", id_permission: 1, id_user: ids.spareExecutive },
    ]);
    expect((await inject("GET", `/admin/privileges/${ids.spareExecutive}`)).json().payload).toEqual(saved.json().payload);
    const detail = await inject("GET", `/admin/${ids.spareExecutive}`);
    expect(detail.json().payload.privileges).toEqual(saved.json().payload);
  });

  it.each([
    ["a body that is not a list", { codeClinicStr: "hcs-rcr" }, "Lista de privilegios inválida"],
    ["an item without clinic", [{ id_permission: 1 }], "Lista de privilegios inválida"],
    [
      "an item of another user",
      [{ codeClinicStr: "hcs-rcr", id_user: 1 }],
      "Los privilegios deben ser del mismo usuario indicado en id_user",
    ],
  ])("refuses %s with 400", async (_label, body, message) => {
    const response = await inject("POST", `/admin/privileges-array?id_user=${ids.spareExecutive}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses a missing or malformed id_user with 400", async () => {
    for (const query of ["", "?id_user=", "?id_user=abc"]) {
      const response = await inject("POST", `/admin/privileges-array${query}`, []);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Identificador de usuario inválido");
    }
  });
});

describe("staff password reset", () => {
  const reset = (body: object) => inject("POST", "/admin/resetPassword?clinic=hcs-rcr", body);

  it("sets the password, ends the user's sessions and asks for a new password at the next login", async () => {
    const oldToken = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    const response = await reset({
      oldPassword: "lo-que-sea",
      password: "Restablecida2026",
      passwordConfirmation: "Restablecida2026",
      rut: demo.incomplete.rut,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ payload: true });
    expect((await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(oldToken) })).statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: demo.incomplete.rut, password: "Restablecida2026" },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().payload.user.hasChangedPassword).toBe(false);
    const audit = await ctx.db.prisma.auditEvent.findFirst({ where: { action: "user.password-reset" }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ outcome: "ok", actorRole: 0 });
    expect(JSON.stringify(audit)).not.toContain("Restablecida2026");
  });

  it.each([
    [
      "a weak password",
      { password: "debil", passwordConfirmation: "debil", rut: demo.incomplete.rut },
      "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
    ],
    [
      "a mismatched confirmation",
      { password: "Restablecida2027", passwordConfirmation: "Restablecida2028", rut: demo.incomplete.rut },
      "Las contraseñas no coinciden",
    ],
    ["an invalid RUT", { password: "Restablecida2027", passwordConfirmation: "Restablecida2027", rut: "1.111.111-9" }, "Rut inválido"],
    [
      "a common password",
      { password: "Password1", passwordConfirmation: "Password1", rut: demo.incomplete.rut },
      "La contraseña es demasiado común, elija otra",
    ],
  ])("refuses %s with 400", async (_label, body, message) => {
    const response = await reset(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("answers 404 for an unknown RUT", async () => {
    const response = await reset({ password: "Restablecida2027", passwordConfirmation: "Restablecida2027", rut: rutOf(32_999_999) });
    expect(response.statusCode).toBe(404);
  });
});

describe("notices to the person when staff change their account (issue 23, finding 6)", () => {
  it("tells the previous address when staff change a patient's e-mail, with the new one partly hidden", async () => {
    const before = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.patient }, select: { email: true } });
    const changed = await inject("PATCH", `/admin/${ids.patient}`, { email: "cambiada.por.personal@correo.cl" });
    expect(changed.statusCode, changed.body).toBe(200);
    const notice = await ctx.mail.waitFor(before.email);
    expect(notice.subject).toBe("Portal Pacientes - Cambio de correo electrónico");
    expect(notice.text).toContain("ca***@correo.cl");
    expect(notice.text).toContain("el personal de la clínica");
    expect(notice.text).not.toContain("cambiada.por.personal@correo.cl");
  });

  it("tells the person when staff set their password, without the password, over REST and tRPC", async () => {
    const target = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.spareExecutive }, select: { email: true, rut: true } });
    await ctx.mail.clear();
    const rest = await inject("POST", "/admin/resetPassword?clinic=hcs-rcr", {
      rut: spareExecutive.rut,
      password: "Asignada2026x",
      passwordConfirmation: "Asignada2026x",
    });
    expect(rest.statusCode, rest.body).toBe(200);
    const notice = await ctx.mail.waitFor(target.email);
    expect(notice.subject).toBe("Portal Pacientes - Cambio de contraseña");
    expect(notice.text).toContain("El personal de la clínica le asignó una nueva contraseña");
    expect(notice.text + notice.html).not.toContain("Asignada2026x");

    await ctx.mail.clear();
    const trpc = await ctx.app.inject({
      method: "POST",
      url: "/trpc/users.resetPassword",
      headers: bearer(adminToken),
      payload: { rut: spareExecutive.rut, password: "Asignada2027x", passwordConfirmation: "Asignada2027x" },
    });
    expect(trpc.statusCode, trpc.body).toBe(200);
    const second = await ctx.mail.waitFor(target.email);
    expect(second.text + second.html).not.toContain("Asignada2027x");
  });
});
