import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";

// Issue 33, point 4: the bill form shows whose RUT was typed, or 'No existe un paciente con ese RUT'.

let ctx: TestContext;
const createCaller = createCallerFactory(appRouter);
const as = async (rut: string, password: string, portal: "patient" | "staff") =>
  createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${await ctx.login(rut, password, portal)}`));
const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? `${error.code}: ${error.message}` : String(error);
  }
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("bills.patient", () => {
  it("names the patient of a RUT, with or without dots, and says when there is none", async () => {
    const admin = await as(demo.admin.rut, demo.admin.password, "staff");
    expect(await admin.bills.patient({ rut: "12.345.678-5" })).toEqual({ name: expect.stringContaining("María") });
    expect(await admin.bills.patient({ rut: "12345678-5" })).toEqual({ name: expect.stringContaining("María") });
    expect(await failure(admin.bills.patient({ rut: rutOf(34_200_300) }))).toBe("NOT_FOUND: No existe un paciente con ese RUT");
    expect(await failure(admin.bills.patient({ rut: demo.executive.rut }))).toBe("NOT_FOUND: No existe un paciente con ese RUT");
  });

  it("does not tell an executive the names of patients outside their clinics, and refuses patients", async () => {
    const far = rutOf(34_200_400);
    await insertUser(ctx.db.prisma, {
      rut: far,
      email: "lejano@correo.cl",
      roleType: 2,
      firstName: "Lejano",
      patientClinics: ["lircay-rcr"],
    });
    const executive = await as(demo.executive.rut, demo.executive.password, "staff");
    expect(await failure(executive.bills.patient({ rut: far }))).toBe("NOT_FOUND: No existe un paciente con ese RUT");
    const patient = await as(demo.patient.rut, demo.patient.password, "patient");
    expect(await failure(patient.bills.patient({ rut: far }))).toMatch(/^FORBIDDEN/);
  });
});
