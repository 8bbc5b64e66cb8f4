import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { userIdByRut } from "../helpers/fixtures.ts";

// Issue 33, point 3: what a patient still owes ('Total por pagar', the summary of 'Mi cuenta'), over tRPC bills.pending.

let ctx: TestContext;
const createCaller = createCallerFactory(appRouter);
const as = async (rut: string, password: string, portal: "patient" | "staff") =>
  createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${await ctx.login(rut, password, portal)}`));

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("bills.pending", () => {
  it("counts and sums the patient's own unpaid bills, and follows a payment", async () => {
    const userId = await userIdByRut(ctx.db.prisma, demo.patient.rut);
    const unpaid = await ctx.db.prisma.bill.findMany({ where: { userId, isPaid: false }, select: { id: true, amount: true } });
    expect(unpaid.length).toBeGreaterThan(1);
    const patient = await as(demo.patient.rut, demo.patient.password, "patient");
    expect(await patient.bills.pending()).toEqual({ count: unpaid.length, total: unpaid.reduce((sum, bill) => sum + bill.amount, 0) });

    await ctx.db.prisma.bill.update({ where: { id: unpaid[0]!.id }, data: { isPaid: true } });
    expect(await patient.bills.pending()).toEqual({
      count: unpaid.length - 1,
      total: unpaid.slice(1).reduce((sum, bill) => sum + bill.amount, 0),
    });
  });

  it("refuses staff, who have no bills of their own", async () => {
    const admin = await as(demo.admin.rut, demo.admin.password, "staff");
    await expect(admin.bills.pending()).rejects.toThrowError(TRPCError);
  });
});
