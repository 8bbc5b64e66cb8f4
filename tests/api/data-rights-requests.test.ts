import { noticePreferencesOf } from "../../server/lib/notice-preferences.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { insertPatient, plainRutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// 'Solicitudes' (issue 28): patients ask for rectification, opposition to e-mail notices or closing their portal
// account; staff handle them in 'Solicitudes de pacientes' within the legal deadline, and the patient gets a mail on
// every change. Closing an account refuses login, ends sessions and removes the portal's contact data.

let ctx: TestContext;
const ids = { ana: 0, bruno: 0 };
const tokens = { ana: "", bruno: "", admin: "", executive: "" };
const createCaller = createCallerFactory(appRouter);
const callerOf = (token: string) => createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${token}`));

beforeAll(async () => {
  ctx = await createTestContext();
  const patient = (body: number, firstName: string, clinic: string) => insertPatient(ctx.db.prisma, body, firstName, clinic);
  ids.ana = await patient(31000001, "Ana", "hcs-rcr");
  ids.bruno = await patient(31000002, "Bruno", "portada-rcr");
  await ctx.db.prisma.user.update({ where: { id: ids.ana }, data: { phoneNumber: "+56987654321" } });
  tokens.ana = await ctx.login(plainRutOf(31000001), "Paciente2026");
  tokens.bruno = await ctx.login(plainRutOf(31000002), "Paciente2026");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
});
afterAll(() => ctx.close());

const create = (token: string, payload: object) =>
  ctx.app.inject({ method: "POST", url: api("/patient/rights-requests"), headers: bearer(token), payload });
const queue = (token: string, query = "") =>
  ctx.app.inject({ method: "GET", url: api(`/admin/rights-requests?${query}`), headers: bearer(token) });
const move = (token: string, id: number, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: api(`/admin/rights-requests/${id}`), headers: bearer(token), payload });

describe("a patient's requests", () => {
  it("records a rectification with the field and the correct value, due 30 calendar days later, and mails a receipt", async () => {
    await ctx.mail.clear();
    const response = await create(tokens.ana, { kind: "rectification", field: "other", correctValue: "Previsión: Fonasa" });
    expect(response.statusCode).toBe(200);
    const request = response.json().payload;
    expect(request).toMatchObject({
      kind: "rectification",
      field: "other",
      correctValue: "Previsión: Fonasa",
      status: "received",
      overdue: false,
    });
    const days = (Date.parse(request.dueAt) - Date.parse(request.receivedAt)) / 86_400_000;
    expect(days).toBeGreaterThan(30);
    expect(days).toBeLessThanOrEqual(31);
    const mail = await ctx.mail.waitFor("ana@correo.cl");
    expect(mail.subject).toContain(`Solicitud N° ${request.id}: Recibida`);
    expect(mail.text).toMatch(/a más tardar el \d{2}-\d{2}-\d{4}/);
  });

  it("refuses to rectify a datum the patient edits themself in 'Datos personales' (issue 45 §5)", async () => {
    for (const field of ["firstName", "lastName", "birthDate", "email", "phoneNumber"]) {
      const refused = await create(tokens.ana, { kind: "rectification", field, correctValue: "14-02-1985" });
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json().message).toBe("Seleccione el dato que está incorrecto");
    }
  });

  it("refuses a rectification without the correct value in Spanish, and a second open request of the same kind", async () => {
    const missing = await create(tokens.ana, { kind: "rectification", field: "rut", correctValue: " " });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("Ingrese el valor correcto");
    const again = await create(tokens.ana, { kind: "rectification", field: "rut", correctValue: "1-9" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Ya tiene una solicitud de este tipo en trámite");
  });

  it("shows a patient only their own requests, over REST and tRPC; staff routes refuse patients", async () => {
    await create(tokens.bruno, { kind: "email_opposition" });
    const mine = await ctx.app.inject({ method: "GET", url: api("/patient/rights-requests"), headers: bearer(tokens.bruno) });
    expect(mine.json().payload.map((request: { patient: { id: number } }) => request.patient.id)).toEqual([ids.bruno]);
    expect((await callerOf(tokens.ana).dataRights.requests()).every((request) => request.patient.id === ids.ana)).toBe(true);
    expect((await queue(tokens.ana)).statusCode).toBe(403);
    const first = (await callerOf(tokens.ana).dataRights.requests())[0]!;
    expect((await move(tokens.bruno, first.id, { status: "resolved" })).statusCode).toBe(403);
  });
});

describe("the staff queue", () => {
  it("shows an executive only requests of patients registered at their clinics; an admin sees all", async () => {
    const executive = (await queue(tokens.executive)).json().payload;
    expect(executive.requests.map((request: { patient: { id: number } }) => request.patient.id)).toEqual([ids.ana]);
    const admin = (await queue(tokens.admin)).json().payload;
    expect(admin.total).toBe(2);
    const brunos = admin.requests.find((request: { patient: { id: number } }) => request.patient.id === ids.bruno);
    expect((await move(tokens.executive, brunos.id, { status: "in_progress" })).statusCode).toBe(404);
  });

  it("marks a request past its deadline as overdue", async () => {
    const anas = (await callerOf(tokens.ana).dataRights.requests())[0]!;
    await ctx.db.prisma.rightsRequest.update({ where: { id: anas.id }, data: { dueAt: new Date(Date.now() - 60_000) } });
    const listed = (await queue(tokens.executive)).json().payload.requests[0];
    expect(listed).toMatchObject({ id: anas.id, overdue: true });
  });

  it("moves a request to 'en curso', then refuses a rejection without a reason, and mails the patient on each change", async () => {
    const anas = (await callerOf(tokens.ana).dataRights.requests())[0]!;
    await ctx.mail.clear();
    const started = await move(tokens.executive, anas.id, { status: "in_progress" });
    expect(started.json().payload.status).toBe("in_progress");
    expect((await ctx.mail.waitFor("ana@correo.cl")).subject).toContain("En curso");
    const noReason = await move(tokens.executive, anas.id, { status: "rejected" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe("Ingrese el motivo del rechazo");
    await ctx.mail.clear();
    const rejected = await move(tokens.executive, anas.id, { status: "rejected", reason: "El certificado de nacimiento dice otra fecha" });
    expect(rejected.json().payload).toMatchObject({ status: "rejected", rejectionReason: "El certificado de nacimiento dice otra fecha" });
    expect((await ctx.mail.waitFor("ana@correo.cl")).text).toContain("Motivo: El certificado de nacimiento dice otra fecha");
    expect((await move(tokens.admin, anas.id, { status: "resolved" })).statusCode).toBe(409);
  });

  it("resolving an opposition switches off every e-mail notice of the patient ('Avisos')", async () => {
    const brunos = (await callerOf(tokens.bruno).dataRights.requests())[0]!;
    expect((await move(tokens.admin, brunos.id, { status: "resolved" })).statusCode).toBe(200);
    expect(await noticePreferencesOf(ctx.db.prisma, ids.bruno)).toEqual({ results: false, bills: false, appointments: false });
  });
});

describe("closing a portal account", () => {
  it("on resolution refuses login in Spanish, ends every session and removes e-mail and phone, keeping RUT, names and bills", async () => {
    await ctx.mail.clear();
    const closure = (await create(tokens.ana, { kind: "account_closure", details: "Ya no uso el portal" })).json().payload;
    await ctx.mail.waitFor("ana@correo.cl");
    await ctx.mail.clear();
    expect((await move(tokens.admin, closure.id, { status: "resolved" })).statusCode).toBe(200);
    const mail = await ctx.mail.waitFor("ana@correo.cl");
    expect(mail.text).toContain("Su ficha clínica sigue en la clínica");

    const me = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(tokens.ana) });
    expect(me.statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: plainRutOf(31000001), password: "Paciente2026" },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toContain("Su cuenta del portal fue cerrada a su solicitud");
    const row = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.ana } });
    expect(row).toMatchObject({ email: "", phoneNumber: null, rut: plainRutOf(31000001), firstName: "Ana" });
    expect(row.closedAt).not.toBeNull();
    expect(await ctx.db.prisma.session.count({ where: { userId: ids.ana, endedAt: null } })).toBe(0);
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "account.close", patientId: ids.ana } })).toBe(1);
  });

  it("a closed account gets no password-reset link (it has no address left and no way back in by mail)", async () => {
    const asked = await ctx.app.inject({
      method: "POST",
      url: api("/auth/request-reset-password-rut"),
      payload: { rut: plainRutOf(31000001) },
    });
    expect(asked.statusCode).toBe(200);
    await ctx.app.deps.background.settled();
    expect(await ctx.db.prisma.passwordResetToken.count({ where: { userId: ids.ana } })).toBe(0);
  });

  it("a wrong password on a closed account still answers the usual refusal (nothing told to who lacks the password)", async () => {
    const login = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      payload: { rut: plainRutOf(31000001), password: "Otra2026x" },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe("resolving a rectification (issue 45 §5)", () => {
  const patients = { carla: 0, diego: 0 };
  const patientTokens = { carla: "", diego: "" };
  beforeAll(async () => {
    patients.carla = await insertPatient(ctx.db.prisma, 31000003, "Carla", "hcs-rcr");
    patients.diego = await insertPatient(ctx.db.prisma, 31000004, "Diego", "hcs-rcr");
    patientTokens.carla = await ctx.login(plainRutOf(31000003), "Paciente2026");
    patientTokens.diego = await ctx.login(plainRutOf(31000004), "Paciente2026");
  });

  it("changes the RUT only once staff confirm it, through the audited user edit, and mails the patient what was changed", async () => {
    const asked = (
      await create(patientTokens.carla, {
        kind: "rectification",
        field: "rut",
        correctValue: "31.000.005-" + plainRutOf(31000005).slice(-1),
      })
    ).json().payload;
    const unconfirmed = await move(tokens.admin, asked.id, { status: "resolved" });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().message).toBe("Confirme que se aplica el cambio del dato antes de resolver");
    expect((await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: patients.carla } })).rut).toBe(plainRutOf(31000003));

    await ctx.mail.clear();
    const resolved = await move(tokens.admin, asked.id, { status: "resolved", applyChange: true });
    expect(resolved.statusCode).toBe(200);
    const dto = resolved.json().payload;
    expect(dto).toMatchObject({
      status: "resolved",
      resolution: `Se corrigió su RUT: ahora es 31.000.005-${plainRutOf(31000005).slice(-1)}.`,
    });
    expect(Date.parse(dto.resolvedAt)).toBeGreaterThan(Date.parse(dto.receivedAt));
    expect((await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: patients.carla } })).rut).toBe(plainRutOf(31000005));
    const edit = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "user.update", resourceId: String(patients.carla) } });
    expect(JSON.stringify(edit.before)).toContain("31.000.003-");
    expect(JSON.stringify(edit.after)).toContain("31.000.005");
    const mail = await ctx.mail.waitFor("carla@correo.cl");
    expect(mail.subject).toContain("Resuelta");
    expect(mail.text).toContain("Se corrigió su RUT: ahora es 31.000.005-");
  });

  it("refuses a RUT another account has (the request stays open), and a rejection says no datum changed", async () => {
    const asked = (await create(patientTokens.diego, { kind: "rectification", field: "rut", correctValue: plainRutOf(31000001) })).json()
      .payload;
    const taken = await move(tokens.admin, asked.id, { status: "resolved", applyChange: true });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain("Ya existe una cuenta con el Rut");
    expect((await callerOf(patientTokens.diego).dataRights.requests())[0]).toMatchObject({ status: "received", resolvedAt: null });

    await ctx.mail.clear();
    const rejected = await move(tokens.admin, asked.id, { status: "rejected", reason: "El RUT pedido es de otra persona" });
    expect(rejected.json().payload.resolvedAt).not.toBeNull();
    const mail = await ctx.mail.waitFor("diego@correo.cl");
    expect(mail.text).toContain("Motivo: El RUT pedido es de otra persona");
    expect(mail.text).toContain("No se cambió ningún dato.");
  });

  it("resolves 'Otro dato' only with staff's note of what was corrected, which the patient reads", async () => {
    const asked = (await create(patientTokens.diego, { kind: "rectification", field: "other", correctValue: "Previsión: Isapre" })).json()
      .payload;
    const noNote = await callerOf(tokens.admin)
      .dataRights.updateRequest({ id: asked.id, status: "resolved" })
      .catch((error: Error) => error);
    expect((noNote as Error).message).toBe("Indique qué se corrigió y dónde");
    await ctx.mail.clear();
    const resolved = await callerOf(tokens.admin).dataRights.updateRequest({
      id: asked.id,
      status: "resolved",
      reason: "Previsión cambiada a Isapre en la ficha de admisión",
    });
    expect(resolved.resolution).toBe("Lo que corrigió la clínica: Previsión cambiada a Isapre en la ficha de admisión");
    expect((await ctx.mail.waitFor("diego@correo.cl")).text).toContain("Previsión cambiada a Isapre en la ficha de admisión");
  });
});
