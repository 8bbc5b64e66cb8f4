import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { rutOf, userIdByRut } from "../helpers/fixtures.ts";

// The tRPC procedures the React staff screens call: same services, same rules as REST.

let ctx: TestContext;
const createCaller = createCallerFactory(appRouter);
const callers = {} as Record<"patient" | "executive" | "admin", ReturnType<typeof createCaller>>;
let patientId: number;
let executiveId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const as = async (rut: string, password: string, portal: "patient" | "staff") =>
    createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${await ctx.login(rut, password, portal)}`));
  callers.patient = await as(demo.patient.rut, demo.patient.password, "patient");
  callers.executive = await as(demo.executive.rut, demo.executive.password, "staff");
  callers.admin = await as(demo.admin.rut, demo.admin.password, "staff");
  patientId = await userIdByRut(ctx.db.prisma, demo.incomplete.rut);
  executiveId = await userIdByRut(ctx.db.prisma, demo.executive.rut);
});
afterAll(() => ctx.close());

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? `${error.code}: ${error.message}` : String(error);
  }
};

describe("users tRPC router", () => {
  it("refuses every procedure to a patient with FORBIDDEN, auditing each attempt, whatever the input", async () => {
    const c = callers.patient;
    // Started one at a time: all at once, later ones could reject before anything awaits them.
    const attempts = [
      () => c.users.list({}),
      () => c.users.get({ id: patientId }),
      () => c.users.update({ id: patientId, phoneNumber: "+56911112222" }),
      () => c.users.create({ rut: rutOf(34_000_100), email: "x@correo.cl" }),
      () => c.users.resetPassword({ rut: demo.incomplete.rut, password: "NuevaClave2026", passwordConfirmation: "NuevaClave2026" }),
      () => c.users.privileges({ id: executiveId }),
      () => c.users.setPrivileges({ userId: executiveId, privileges: [] }),
      () => c.users.clinics(),
      () => c.users.get({ id: "no-es-un-id" as unknown as number }),
    ];
    const before = await ctx.db.prisma.auditEvent.count({ where: { actorRole: 2, outcome: "denied" } });
    for (const attempt of attempts) expect(await codeOf(attempt())).toBe("FORBIDDEN: No tiene permiso para acceder a esta página");
    expect(await ctx.db.prisma.auditEvent.count({ where: { actorRole: 2, outcome: "denied" } })).toBe(before + attempts.length);
  });

  it("lists, reads and edits for an executive within their clinics", async () => {
    const page = await callers.executive.users.list({ param: "pedro", limit: 5 });
    expect(page.usersList.map((u) => u.id)).toEqual([patientId]);
    expect(await callers.executive.users.get({ id: patientId })).toMatchObject({ id: patientId, patientClinics: ["hcs-rcr"] });
    expect(await callers.executive.users.update({ id: patientId, phoneNumber: "+56977778888" })).toMatchObject({
      phoneNumber: "+56977778888",
    });
    expect(await codeOf(callers.executive.users.setPrivileges({ userId: executiveId, privileges: [] }))).toBe(
      "FORBIDDEN: Solo un administrador puede modificar los privilegios",
    );
    expect(await codeOf(callers.executive.users.get({ id: await userIdByRut(ctx.db.prisma, demo.admin.rut) }))).toBe(
      "NOT_FOUND: Usuario no encontrado",
    );
  });

  it("gives the admin every procedure, including the clinic catalogue and privileges", async () => {
    const clinics = await callers.admin.users.clinics();
    expect(clinics).toHaveLength(7);
    expect(clinics[0]).toEqual({ code: 7, codeClinicStr: "hcs-rcr", title: "Hospital Clínico del Sur" });
    const created = await callers.admin.users.create({
      rut: rutOf(34_000_200),
      email: "trpc.nuevo@correo.cl",
      roleType: 1,
      rcrLink: "http://clinicasur.localhost:4200",
    });
    expect(created).toMatchObject({ message: "Cuenta creada", user: { roleType: 1 } });
    await ctx.mail.waitFor("trpc.nuevo@correo.cl");
    const privileges = await callers.admin.users.setPrivileges({ userId: created.user.id, privileges: [{ codeClinicStr: "lircay-rcr" }] });
    expect(privileges).toEqual([{ id_clinic: 12, codeClinicStr: "lircay-rcr", id_permission: 1, id_user: created.user.id }]);
    expect(await callers.admin.users.privileges({ id: created.user.id })).toEqual(privileges);
    expect(
      await callers.admin.users.resetPassword({ rut: rutOf(34_000_200), password: "OtraClave2026", passwordConfirmation: "OtraClave2026" }),
    ).toBe(true);
  });

  it("answers bad input with BAD_REQUEST and the Spanish rule message", async () => {
    expect(await codeOf(callers.admin.users.update({ id: patientId, email: "malo" }))).toBe("BAD_REQUEST: Email inválido");
    expect(await codeOf(callers.admin.users.create({ rut: rutOf(34_000_300), email: "malo" }))).toBe(
      "BAD_REQUEST: La dirección de correo es incorrecta",
    );
    expect(await codeOf(callers.admin.users.list({ limit: 500 }))).toBe("BAD_REQUEST: El límite debe ser un número entero entre 1 y 100");
  });

  it("answers over HTTP with the tRPC status code", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const response = await ctx.app.inject({ method: "GET", url: "/trpc/users.clinics", headers: bearer(token) });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe("No tiene permiso para acceder a esta página");
  });
});
