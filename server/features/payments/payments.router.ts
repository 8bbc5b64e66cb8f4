import { billStatusLabel } from "../../contract/bills.dto.ts";
import { z } from "zod";
import { Role } from "../../contract/roles.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { patientProcedure, router } from "../../trpc/trpc.ts";
import {
  accountPaymentStatus,
  commitPayment,
  settlePendingPayments,
  startPayment,
  ZAccountStatusInput,
  ZCommitPaymentInput,
  ZStartPaymentInput,
} from "./payments.service.ts";

// tRPC over the same service as the REST routes; every procedure is for patients (the service checks it too).

export const paymentsRouter = router({
  start: patientProcedure.input(ZStartPaymentInput).mutation(({ ctx, input }) => startPayment(ctx.deps, ctx.user, input, ctx.meta)),
  commit: patientProcedure.input(ZCommitPaymentInput).mutation(({ ctx, input }) => commitPayment(ctx.deps, ctx.user, input, ctx.meta)),
  accountStatus: patientProcedure
    .input(ZAccountStatusInput)
    .query(({ ctx, input }) => accountPaymentStatus(ctx.deps, ctx.user, input, ctx.meta)),
  /**
   * The patient's bills with what the pay button needs. Settles lost commits first (the bills page visit of SPEC §4).
   * Stand-in until the bills feature's list lands: that list should call settlePendingPayments the same way.
   */
  myBills: patientProcedure.input(z.object({}).optional()).query(async ({ ctx }) => {
    if (ctx.user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
    await settlePendingPayments(ctx.deps, { userId: ctx.user.id });
    const bills = await ctx.deps.prisma.bill.findMany({
      where: { userId: ctx.user.id },
      orderBy: { createAccountIdDate: "desc" },
      select: { id: true, accountCode: true, createAccountIdDate: true, amount: true, isPaid: true, clinicCode: true },
    });
    return bills.map((bill) => ({
      ...bill,
      status: billStatusLabel(bill.isPaid),
      createAccountIdDate: bill.createAccountIdDate.toISOString(),
    }));
  }),
});
