import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { insertUser, rutOf, userIdByRut } from "../helpers/fixtures.ts";

// The permission matrix of PERMISSIONS.md over every REST endpoint of the staff user administration.

let ctx: TestContext;
const tokens = { patient: "", executive: "", admin: "" };
const ids = { inScopePatient: 0, outScopePatient: 0, peerExecutive: 0, farExecutive: 0, admin: 0, executive: 0 };
const peerExecutive = { rut: rutOf(30_100_200), password: "Ejecutivo2026b" };
const sudLink = "https://portalpacientes.clinicasur.cl";
const puertoMonttLink = "https://portalpacientes.clinicapuertomontt.cl";

beforeAll(async () => {
  ctx = await createTestContext();
  const prisma = ctx.db.prisma;
  ids.inScopePatient = await userIdByRut(prisma, demo.incomplete.rut); // registered with hcs-rcr
  ids.admin = await userIdByRut(prisma, demo.admin.rut);
  ids.executive = await userIdByRut(prisma, demo.executive.rut); // privileges hcs-rcr, maitenes
  ids.outScopePatient = await insertUser(prisma, {
    rut: rutOf(30_100_100),
    email: "lejano@correo.cl",
    roleType: 2,
    firstName: "Lejano",
    patientClinics: ["puertomontt-rcr"],
  });
  ids.peerExecutive = await insertUser(prisma, { ...peerExecutive, email: "par@correo.cl", roleType: 1, clinics: ["hcs-rcr"] });
  ids.farExecutive = await insertUser(prisma, { rut: rutOf(30_100_300), email: "lejos@correo.cl", roleType: 1, clinics: ["lircay-rcr"] });
  tokens.patient = await ctx.login(demo.patient.rut, demo.patient.password);
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
});
afterAll(() => ctx.close());

type Method = "GET" | "POST" | "PATCH";
const call = (token: string, method: Method, path: string, payload?: unknown) =>
  ctx.app.inject({ method, url: api(path), headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

const newPassword = { oldPassword: "", password: "NuevaClave2026", passwordConfirmation: "NuevaClave2026" };

describe("patients on staff endpoints", () => {
  const endpoints: Array<[Method, () => string, unknown?]> = [
    ["GET", () => "/admin/filter/users?page=1&limit=10"],
    ["GET", () => `/admin/${ids.inScopePatient}`],
    ["PATCH", () => `/admin/${ids.inScopePatient}`, { phoneNumber: "+56911112222" }],
    ["POST", () => "/admin", { rut: rutOf(30_200_100), email: "x@correo.cl", roleType: 2, rcrLink: sudLink }],
    ["POST", () => "/admin/resetPassword?clinic=hcs-rcr", { ...newPassword, rut: demo.incomplete.rut }],
    ["GET", () => `/admin/privileges/${ids.executive}`],
    ["POST", () => `/admin/privileges-array?id_user=${ids.executive}`, []],
  ];

  it.each(endpoints.map(([method, path, body]) => ({ method, path, body, label: `${method} ${path.toString().slice(6, 40)}` })))(
    "answers 403 to a patient on $method and audits the denied attempt",
    async ({ method, path, body }) => {
      const before = await ctx.db.prisma.auditEvent.count({ where: { actorRole: 2, outcome: "denied" } });
      const response = await call(tokens.patient, method, path(), body);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe("No tiene permiso para acceder a esta página");
      expect(await ctx.db.prisma.auditEvent.count({ where: { actorRole: 2, outcome: "denied" } })).toBe(before + 1);
    },
  );

  it("changes nothing when a patient tries to create an account", async () => {
    expect(await ctx.db.prisma.user.count({ where: { rut: rutOf(30_200_100).replace(/\./g, "") } })).toBe(0);
  });

  it("answers 401 without a token", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users") });
    expect(response.statusCode).toBe(401);
  });
});

describe("an executive", () => {
  it("lists only patients of their clinics and executives sharing one of them", async () => {
    const response = await call(tokens.executive, "GET", "/admin/filter/users?limit=100&page=1");
    expect(response.statusCode).toBe(200);
    const listed = (response.json().usersList as Array<{ id: number }>).map((u) => u.id);
    expect(listed).toEqual(expect.arrayContaining([ids.inScopePatient, ids.peerExecutive, ids.executive]));
    for (const hidden of [ids.outScopePatient, ids.farExecutive, ids.admin]) expect(listed).not.toContain(hidden);
    expect(response.json().total).toBe(listed.length);
    const admins = await call(tokens.executive, "GET", "/admin/filter/users?roleType=0");
    expect(admins.json()).toMatchObject({ usersList: [], total: 0, page: 1 });
  });

  it.each([
    ["a patient of their clinic", 200, () => ids.inScopePatient],
    ["an executive sharing a clinic", 200, () => ids.peerExecutive],
    ["a patient of another clinic", 404, () => ids.outScopePatient],
    ["an executive of other clinics", 404, () => ids.farExecutive],
    ["an admin", 404, () => ids.admin],
    ["a missing id", 404, () => 999_999],
  ])("gets %s → %i", async (_label, status, id) => {
    const response = await call(tokens.executive, "GET", `/admin/${id()}`);
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json()).toEqual({ statusCode: 404, error: "NOT_FOUND", message: "Usuario no encontrado" });
  });

  it("audits an out-of-scope read as denied", async () => {
    await call(tokens.executive, "GET", `/admin/${ids.outScopePatient}`);
    const row = await ctx.db.prisma.auditEvent.findFirst({
      where: { actorId: ids.executive, action: "user.read", resourceId: String(ids.outScopePatient) },
      orderBy: { id: "desc" },
    });
    expect(row).toMatchObject({ outcome: "denied", actorRole: 1, patientId: ids.outScopePatient });
  });

  it("edits a patient of their clinic, also when the form sends the unchanged role", async () => {
    const response = await call(tokens.executive, "PATCH", `/admin/${ids.inScopePatient}`, {
      phoneNumber: "+56933334444",
      roleType: 2,
      rut: "1-9",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({
      id: ids.inScopePatient,
      phoneNumber: "+56933334444",
      roleType: 2,
      rut: demo.incomplete.rut,
    });
  });

  it.each([
    ["an executive sharing a clinic", () => ids.peerExecutive, { phoneNumber: "+56955556666" }, 403],
    ["a patient of another clinic", () => ids.outScopePatient, { phoneNumber: "+56955556666" }, 404],
    ["an admin", () => ids.admin, { phoneNumber: "+56955556666" }, 404],
    ["the role of a patient of their clinic", () => ids.inScopePatient, { roleType: 1 }, 403],
  ])("cannot edit %s", async (_label, id, body, status) => {
    const before = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: id() } });
    const response = await call(tokens.executive, "PATCH", `/admin/${id()}`, body);
    expect(response.statusCode).toBe(status);
    expect(await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: id() } })).toEqual(before);
    const audit = await ctx.db.prisma.auditEvent.findFirst({
      where: { actorId: ids.executive, action: "user.update" },
      orderBy: { id: "desc" },
    });
    expect(audit?.outcome).toBe("denied");
  });

  it("creates a patient at one of their clinics, registered with that clinic", async () => {
    const rut = rutOf(30_300_100);
    const response = await call(tokens.executive, "POST", "/admin", {
      rut,
      email: "nuevo.ejecutivo@correo.cl",
      roleType: 2,
      rcrLink: sudLink,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ rut, roleType: 2, patientClinics: ["hcs-rcr"] });
  });

  it.each([
    ["an executive", { roleType: 1, rcrLink: sudLink }, "Solo un administrador puede crear cuentas de administrador o ejecutivo"],
    ["an admin", { roleType: 0, rcrLink: sudLink }, "Solo un administrador puede crear cuentas de administrador o ejecutivo"],
    [
      "a patient at a clinic they hold no privilege for",
      { roleType: 2, rcrLink: puertoMonttLink },
      "No tiene privilegios sobre la clínica Clínica Puerto Montt",
    ],
  ])("cannot create %s", async (_label, body, message) => {
    const rut = rutOf(30_300_200);
    const response = await call(tokens.executive, "POST", "/admin", { rut, email: "no@correo.cl", ...body });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(message);
    expect(await ctx.db.prisma.user.count({ where: { rut: rut.replace(/\./g, "") } })).toBe(0);
  });

  it("resets the password of a patient of their clinic but not of other users", async () => {
    expect((await call(tokens.executive, "POST", "/admin/resetPassword", { ...newPassword, rut: demo.incomplete.rut })).statusCode).toBe(
      200,
    );
    expect((await call(tokens.executive, "POST", "/admin/resetPassword", { ...newPassword, rut: peerExecutive.rut })).statusCode).toBe(403);
    expect((await call(tokens.executive, "POST", "/admin/resetPassword", { ...newPassword, rut: rutOf(30_100_100) })).statusCode).toBe(404);
    expect((await call(tokens.executive, "POST", "/admin/resetPassword", { ...newPassword, rut: demo.admin.rut })).statusCode).toBe(404);
  });

  it("reads privileges of users in scope only and can never change them", async () => {
    const peer = await call(tokens.executive, "GET", `/admin/privileges/${ids.peerExecutive}`);
    expect(peer.statusCode).toBe(200);
    expect(peer.json().payload).toEqual([{ id_clinic: 7, codeClinicStr: "hcs-rcr", id_permission: 1, id_user: ids.peerExecutive }]);
    expect((await call(tokens.executive, "GET", `/admin/privileges/${ids.farExecutive}`)).statusCode).toBe(404);
    const change = await call(tokens.executive, "POST", `/admin/privileges-array?id_user=${ids.executive}`, [
      { codeClinicStr: "lircay-rcr", id_permission: 1, id_user: ids.executive },
    ]);
    expect(change.statusCode).toBe(403);
    expect(change.json().message).toBe("Solo un administrador puede modificar los privilegios");
    expect(await ctx.db.prisma.privilege.count({ where: { userId: ids.executive, codeClinicStr: "lircay-rcr" } })).toBe(0);
  });

  it("loses access on the next request once an admin removes the clinic privilege", async () => {
    expect((await call(tokens.executive, "GET", `/admin/${ids.inScopePatient}`)).statusCode).toBe(200);
    const removal = await call(tokens.admin, "POST", `/admin/privileges-array?id_user=${ids.executive}`, [
      { codeClinicStr: "maitenes", id_permission: 1, id_user: ids.executive },
    ]);
    expect(removal.statusCode).toBe(200);
    expect((await call(tokens.executive, "GET", `/admin/${ids.inScopePatient}`)).statusCode).toBe(404);
    const list = await call(tokens.executive, "GET", "/admin/filter/users?limit=100");
    expect((list.json().usersList as Array<{ id: number }>).map((u) => u.id)).not.toContain(ids.inScopePatient);
    await call(tokens.admin, "POST", `/admin/privileges-array?id_user=${ids.executive}`, [
      { codeClinicStr: "hcs-rcr" },
      { codeClinicStr: "maitenes" },
    ]);
    expect((await call(tokens.executive, "GET", `/admin/${ids.inScopePatient}`)).statusCode).toBe(200);
  });
});

describe("an admin", () => {
  it("lists every user", async () => {
    const response = await call(tokens.admin, "GET", "/admin/filter/users?limit=100");
    expect(response.statusCode).toBe(200);
    expect(response.json().total).toBe(await ctx.db.prisma.user.count());
  });

  it("reads, edits and resets anyone, and sets privileges", async () => {
    for (const id of [ids.outScopePatient, ids.farExecutive, ids.admin])
      expect((await call(tokens.admin, "GET", `/admin/${id}`)).statusCode).toBe(200);
    const edit = await call(tokens.admin, "PATCH", `/admin/${ids.farExecutive}`, {
      firstName: "Lejos",
      lastName: "Ejecutivo",
      secondLastName: "Norte",
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().payload).toMatchObject({ name: "Lejos Ejecutivo Norte", roleType: 1 });
    expect((await call(tokens.admin, "POST", "/admin/resetPassword", { ...newPassword, rut: peerExecutive.rut })).statusCode).toBe(200);
    const privileges = await call(tokens.admin, "POST", `/admin/privileges-array?id_user=${ids.farExecutive}`, [
      { codeClinicStr: "lircay-rcr", id_permission: 1, id_user: ids.farExecutive },
      { codeClinicStr: "atacama-rcr", id_permission: 1, id_user: ids.farExecutive },
    ]);
    expect(privileges.statusCode).toBe(200);
    expect(privileges.json().payload.map((p: { codeClinicStr: string }) => p.codeClinicStr)).toEqual(["atacama-rcr", "lircay-rcr"]);
  });

  it("creates an executive account", async () => {
    const response = await call(tokens.admin, "POST", "/admin", {
      rut: rutOf(30_400_100),
      email: "ejecutiva.nueva@correo.cl",
      roleType: 1,
      rcrLink: sudLink,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ payload: { roleType: 1, patientClinics: [], privileges: [] }, message: "Cuenta creada" });
  });

  it("cannot change their own role type", async () => {
    const response = await call(tokens.admin, "PATCH", `/admin/${ids.admin}`, { roleType: 1 });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("No puede cambiar su propio tipo de usuario");
  });
});
