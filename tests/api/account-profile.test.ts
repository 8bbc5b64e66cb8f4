import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextInner } from "../../server/trpc/context.ts";
import { appRouter } from "../../server/trpc/router.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
let patientToken: string;
beforeAll(async () => {
  ctx = await createTestContext();
  patientToken = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const validProfile = {
  firstName: "Ana María",
  secondName: "José",
  lastName: "O'Higgins",
  secondLastName: "Núñez",
  email: "ana.nunez@correo.cl",
  phoneNumber: "+56-9-8765-4321",
  birthDate: "1980-07-21",
};

const edit = (body: unknown, token: string | null = patientToken) =>
  ctx.app.inject({ method: "PATCH", url: api("/auth/user-edit"), headers: token ? bearer(token) : {}, payload: body as object });

const userRow = (rut: string) => ctx.db.prisma.user.findUniqueOrThrow({ where: { rut } });

function tomorrow(): string {
  return new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

describe("GET /auth/me", () => {
  it("returns the caller's stored user without secrets", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(patientToken) });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(payload).toMatchObject({ rut: "12.345.678-5", firstName: "María", lastName: "González", roleType: 2, hasChangedPassword: true });
    expect(payload.dateTyc).not.toBeNull();
    expect(JSON.stringify(payload)).not.toMatch(/passwordHash|argon2|tokenVersion|searchText/);
  });

  it("answers 401 without a token or with a bad one", async () => {
    for (const headers of [{}, bearer("basura")]) {
      const response = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe("PATCH /auth/user-edit validation", () => {
  it.each([
    ["a first name with digits", { firstName: "Mar1a" }, "Solo letras"],
    ["a last name with symbols", { lastName: "González!" }, "Solo letras"],
    ["a second last name with digits", { secondLastName: "Pérez2" }, "Solo letras"],
    ["a middle name with digits", { secondName: "J0sé" }, "Solo letras"],
    ["an e-mail without a domain dot", { email: "ana@correo" }, "Correo electrónico inválido"],
    ["an e-mail without @", { email: "ana.correo.cl" }, "Correo electrónico inválido"],
    ["an empty e-mail", { email: "" }, "Correo electrónico inválido"],
    ["a phone with letters", { phoneNumber: "+56 9 ABCD 4321" }, "Solo caracteres numéricos"],
    ["a phone shorter than 8 characters", { phoneNumber: "1234567" }, "Solo caracteres numéricos"],
    ["a birth date that does not exist", { birthDate: "1990-02-30" }, "La fecha es inválida"],
    ["a birth date that is not a date", { birthDate: "ayer" }, "La fecha es inválida"],
    ["a birth date in the future", { birthDate: tomorrow() }, "La fecha es inválida"],
    ["a number as first name", { firstName: 42 }, "Campo Obligatorio"],
  ])("refuses %s with 400 and its Spanish message", async (_label, change, message) => {
    const response = await edit({ ...validProfile, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: "BAD_REQUEST", message });
  });

  it.each(["firstName", "lastName", "secondLastName"] as const)("refuses a missing %s with 'Campo Obligatorio'", async (field) => {
    const { [field]: _omitted, ...rest } = validProfile;
    const response = await edit(rest);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Campo Obligatorio");
  });

  it.each([
    ["email", "Correo electrónico inválido"],
    ["phoneNumber", "Solo caracteres numéricos"],
    ["birthDate", "La fecha es inválida"],
  ] as const)("refuses a missing %s with its message", async (field, message) => {
    const { [field]: _omitted, ...rest } = validProfile;
    const response = await edit(rest);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await ctx.app.inject({
      method: "PATCH",
      url: api("/auth/user-edit"),
      headers: { ...bearer(patientToken), "content-type": "application/json" },
      payload: "{firstName:",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("El cuerpo de la solicitud no es un JSON válido");
  });

  it("refuses an edit without a token with 401 and writes nothing", async () => {
    const before = await userRow("12345678-5");
    const response = await edit({ ...validProfile, firstName: "Intruso" }, null);
    expect(response.statusCode).toBe(401);
    expect(await userRow("12345678-5")).toEqual(before);
  });

  it("leaves the stored data untouched when the input is refused", async () => {
    const before = await userRow("12345678-5");
    await edit({ ...validProfile, email: "malo" });
    expect(await userRow("12345678-5")).toEqual(before);
  });
});

describe("PATCH /auth/user-edit success", () => {
  it("saves the personal data, returns the updated user and keeps it for the next read", async () => {
    const response = await edit({ ...validProfile, firstName: "  Ana María  " });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    // Issue 33: the phone as typed ('+56-9-8765-4321') is stored in one form, E.164.
    expect(payload).toMatchObject({
      ...validProfile,
      phoneNumber: "+56987654321",
      rut: "12.345.678-5",
      roleType: 2,
      name: "Ana María O'Higgins Núñez",
    });
    expect(JSON.stringify(payload)).not.toMatch(/passwordHash|argon2|tokenVersion/);

    const me = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: bearer(patientToken) });
    expect(me.json().payload).toEqual(payload);

    const row = await userRow("12345678-5");
    expect(row).toMatchObject({
      firstName: "Ana María",
      secondName: "José",
      lastName: "O'Higgins",
      email: "ana.nunez@correo.cl",
      phoneNumber: "+56987654321",
    });
    expect(row.birthDate?.toISOString().slice(0, 10)).toBe("1980-07-21");
  });

  it("keeps the staff search text up to date with the new names and e-mail", async () => {
    await edit({ ...validProfile, lastName: "Valdivia", email: "ana.valdivia@correo.cl" });
    const row = await userRow("12345678-5");
    expect(row.searchText).toContain("valdivia");
    expect(row.searchText).toContain("ana.valdivia@correo.cl");
    expect(row.searchText).toContain("12.345.678-5");
    expect(row.searchText).not.toContain("o'higgins");
  });

  it("clears the middle name when it is sent empty and keeps it when it is left out", async () => {
    await edit({ ...validProfile, secondName: "Isabel" });
    const { secondName: _omitted, ...withoutMiddleName } = validProfile;
    expect((await edit(withoutMiddleName)).json().payload.secondName).toBe("Isabel");
    expect((await edit({ ...validProfile, secondName: "" })).json().payload.secondName).toBeNull();
  });

  it("ignores roleType, rut, id, hasChangedPassword, dateTyc and secrets sent by the client", async () => {
    const before = await userRow("12345678-5");
    const other = await userRow("16789012-1");
    const response = await edit({
      ...validProfile,
      id: other.id,
      rut: "16.789.012-1",
      roleType: 0,
      hasChangedPassword: false,
      dateTyc: null,
      passwordHash: "$argon2id$falso",
      tokenVersion: 99,
      searchText: "falso",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ id: before.id, rut: "12.345.678-5", roleType: 2, hasChangedPassword: true });

    const after = await userRow("12345678-5");
    expect(after).toMatchObject({
      id: before.id,
      rut: before.rut,
      roleType: 2,
      hasChangedPassword: true,
      dateTyc: before.dateTyc,
      passwordHash: before.passwordHash,
      tokenVersion: before.tokenVersion,
    });
    expect(after.searchText).not.toBe("falso");
    // The token still works and the password did not change.
    expect((await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(patientToken) })).statusCode).toBe(200);
    await expect(ctx.login(demo.patient.rut, demo.patient.password)).resolves.toMatch(/^ey/);
  });

  it("never touches another user's row, even when the body names that user", async () => {
    const other = await userRow("16789012-1");
    await edit({ ...validProfile, id: other.id, rut: "16.789.012-1", userId: other.id, firstName: "Cambiado" });
    expect(await userRow("16789012-1")).toEqual(other);
  });

  it("lets a staff user edit their own data too", async () => {
    const adminToken = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const response = await edit({ ...validProfile, email: "admin.nuevo@portalpacientes.cl" }, adminToken);
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ rut: "11.111.111-1", roleType: 0, email: "admin.nuevo@portalpacientes.cl" });
  });

  it("records an audit event with only the changed fields", async () => {
    await edit(validProfile);
    const row = await userRow("12345678-5");
    await edit({ ...validProfile, phoneNumber: "+56-2-2222-3333" });
    const event = await ctx.db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "account.update", actorId: row.id },
      orderBy: { id: "desc" },
    });
    expect(event).toMatchObject({ resource: "user", resourceId: String(row.id), patientId: row.id, actorRole: 2, outcome: "ok" });
    expect(event.after).toEqual({ phoneNumber: "+56222223333" });
    expect(event.before).toEqual({ phoneNumber: row.phoneNumber });
  });
});

describe("account over tRPC", () => {
  const callerFor = (authorization: string | undefined) =>
    createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "127.0.0.1" }, authorization));

  it("refuses a bad e-mail with BAD_REQUEST and the same Spanish message as REST", async () => {
    const caller = callerFor(`Bearer ${patientToken}`);
    const error = await caller.account.updateProfile({ ...validProfile, email: "sin-arroba" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: "BAD_REQUEST", message: "Correo electrónico inválido" });
  });

  it("saves through the same service and reads the user back with me", async () => {
    const caller = callerFor(`Bearer ${patientToken}`);
    const updated = await caller.account.updateProfile({ ...validProfile, firstName: "Trinidad" });
    expect(updated).toMatchObject({ firstName: "Trinidad", rut: "12.345.678-5" });
    // A new context, as the next HTTP request gets: a context authenticates once and keeps that user for its request.
    expect(await callerFor(`Bearer ${patientToken}`).account.me()).toEqual(updated);
  });

  it("refuses a caller without a token with UNAUTHORIZED", async () => {
    await expect(callerFor(undefined).account.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("changing the e-mail address", () => {
  it("tells the previous address, with the new one partly hidden, and sends nothing when it stays the same", async () => {
    const previous = (await userRow("12345678-5")).email;
    await ctx.mail.clear();
    const changed = await edit({ ...validProfile, email: "nueva.direccion@correo.cl" });
    expect(changed.statusCode).toBe(200);
    // Earlier edits in this file send notices of their own; wait for this change's one.
    // Through the durable mail queue: delivery may take a few seconds.
    await expect
      .poll(async () => (await ctx.mail.list(previous)).some((mail) => mail.text.includes("nu***@correo.cl")), { timeout: 15_000 })
      .toBe(true);
    const notice = (await ctx.mail.list(previous)).find((mail) => mail.text.includes("nu***@correo.cl"))!;
    expect(notice.subject).toBe("Portal Pacientes - Cambio de correo electrónico");
    expect(notice.text).not.toContain("nueva.direccion@correo.cl");

    await ctx.app.deps.background.settled();
    await ctx.mail.clear();
    expect((await edit({ ...validProfile, email: "nueva.direccion@correo.cl", phoneNumber: "+56911119999" })).statusCode).toBe(200);
    // Whatever the edit started in the background has ended: no notice now means none at all.
    await ctx.app.deps.background.settled();
    expect(await ctx.mail.list()).toHaveLength(0);
  });
});
