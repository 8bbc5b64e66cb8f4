import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { defaultRange } from "../../server/features/results/result-dates.ts";
import { PENDING, VALIDATED } from "../../server/contract/results.dto.ts";
import { createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { userIdByRut } from "../helpers/fixtures.ts";

// Issue 33, point 3: the newest laboratory and imaging results in the summary of 'Mi cuenta' (tRPC reports.latest),
// kept per patient for a minute, and a provider that fails does not break the answer.

let ctx: TestContext;
let down: TestContext;
const createCaller = createCallerFactory(appRouter);
const as = async (on: TestContext, rut: string, password: string, portal: "patient" | "staff") =>
  createCaller(createContextInner(on.app.deps, { ip: "10.0.0.9" }, `Bearer ${await on.login(rut, password, portal)}`));

beforeAll(async () => {
  [ctx, down] = await Promise.all([
    createTestContext(),
    createTestContext({ LAB_FHIR_BASE_URL: "{mocks}/fallas/caida/fhir", IMAGING_DICOMWEB_BASE_URL: "{mocks}/fallas/caida/dicom-web" }),
  ]);
});
afterAll(() => Promise.all([ctx.close(), down.close()]));

const newest = (days: string[]) => [...days].sort().at(-1) ?? null;

describe("reports.latest", () => {
  it("gives the patient's newest laboratory and imaging days of the last 12 months, asking each provider once a minute", async () => {
    const { lab, imaging } = ctx.app.deps.providers;
    const range = defaultRange();
    const orders = await lab.listOrders(demo.patient.rut.replace(/\./g, ""), range);
    // The newest order is still 'Pendiente Validación': the summary points at the newest validated one (issue 45).
    expect(orders.find((o) => o.date === newest(orders.map((order) => order.date)))?.status).toBe(PENDING);
    const expected = {
      laboratory: {
        available: true,
        newest: newest(orders.filter((o) => o.status === VALIDATED).map((o) => o.date)),
      },
      imaging: {
        available: true,
        newest: newest((await imaging.searchStudies(demo.patient.rut.replace(/\./g, ""), range)).map((s) => s.date)),
      },
    };
    expect(expected.laboratory.newest).not.toBeNull();
    expect(expected.imaging.newest).not.toBeNull();
    const labCalls = vi.spyOn(lab, "listOrders");
    const imagingCalls = vi.spyOn(imaging, "searchStudies");

    const patient = await as(ctx, demo.patient.rut, demo.patient.password, "patient");
    expect(await patient.reports.latest()).toEqual(expected);
    expect(await patient.reports.latest()).toEqual(expected);
    expect(labCalls).toHaveBeenCalledTimes(1);
    expect(imagingCalls).toHaveBeenCalledTimes(1);

    // Each read is audited, from the cache too.
    const patientId = await userIdByRut(ctx.db.prisma, demo.patient.rut);
    const audited = await ctx.db.prisma.auditEvent.count({
      where: { patientId, action: { in: ["lab.orders.list", "imaging.studies.list"] } },
    });
    expect(audited).toBe(4);
  });

  it("says a provider is unavailable without failing the answer, and asks it again next time", async () => {
    const patient = await as(down, demo.patient.rut, demo.patient.password, "patient");
    const labCalls = vi.spyOn(down.app.deps.providers.lab, "listOrders");
    expect(await patient.reports.latest()).toEqual({ laboratory: { available: false }, imaging: { available: false } });
    expect(await patient.reports.latest()).toEqual({ laboratory: { available: false }, imaging: { available: false } });
    expect(labCalls).toHaveBeenCalledTimes(2);
  });

  it("refuses staff, who have no results of their own", async () => {
    const admin = await as(ctx, demo.admin.rut, demo.admin.password, "staff");
    await expect(admin.reports.latest()).rejects.toThrowError(TRPCError);
  });
});
