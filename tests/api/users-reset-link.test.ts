import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { insertUser, rutOf, userIdByRut } from "../helpers/fixtures.ts";

// Issue 33, point 5: 'Enviar enlace para restablecer contraseña' sends the recovery e-mail through the same service as
// the patient's own request, under the staff rules of PERMISSIONS.md, audited.

let ctx: TestContext;
const createCaller = createCallerFactory(appRouter);
const as = async (rut: string, password: string, portal: "patient" | "staff") =>
  createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${await ctx.login(rut, password, portal)}`));
const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("users.sendResetLink", () => {
  it("mails the patient the recovery link of the clinic's portal and audits who sent it", async () => {
    const patientId = await userIdByRut(ctx.db.prisma, demo.incomplete.rut);
    const admin = await as(demo.admin.rut, demo.admin.password, "staff");
    const answer = await admin.users.sendResetLink({ id: patientId, rcrLink: "http://clinicasur.localhost:4200" });
    expect(answer).toEqual({ email: "incompleto@portalpacientes.cl" });
    const mail = await ctx.mail.waitFor("incompleto@portalpacientes.cl");
    expect(mail.subject).toBe("Hospital Clínico del Sur - Recuperación de contraseña");
    expect(mail.text).toMatch(/\/recover-password\?token=[^&\s]+&rut=16\.789\.012-1/);
    const adminId = await userIdByRut(ctx.db.prisma, demo.admin.rut);
    const event = await ctx.db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "user.password-reset-link" },
      orderBy: { id: "desc" },
    });
    expect(event).toMatchObject({ actorId: adminId, resourceId: String(patientId), patientId, outcome: "ok" });
  });

  it("follows the staff rules: executives only for patients of their clinics; patients never", async () => {
    const executive = await as(demo.executive.rut, demo.executive.password, "staff");
    const adminId = await userIdByRut(ctx.db.prisma, demo.admin.rut);
    const elsewhere = await insertUser(ctx.db.prisma, {
      rut: rutOf(34_100_200),
      email: "lejos@correo.cl",
      roleType: 2,
      patientClinics: ["lircay-rcr"],
    });
    expect(await codeOf(executive.users.sendResetLink({ id: adminId }))).toBe("NOT_FOUND");
    expect(await codeOf(executive.users.sendResetLink({ id: elsewhere }))).toBe("NOT_FOUND");
    const patient = await as(demo.patient.rut, demo.patient.password, "patient");
    expect(await codeOf(patient.users.sendResetLink({ id: elsewhere }))).toBe("FORBIDDEN");
    expect(await ctx.mail.list("lejos@correo.cl")).toHaveLength(0);
  });
});
