import { actingPatientProcedure, patientProcedure, router } from "../../trpc/trpc.ts";
import { accountPaymentStatus, commitPayment, settleMyPayments, startPayment } from "./payments.service.ts";
import { ZAccountStatusInput, ZCommitPaymentInput, ZStartPaymentInput } from "../../contract/payments.schemas.ts";

// tRPC over the same service as the REST routes; every procedure is for patients (the service checks it too).

export const paymentsRouter = router({
  start: actingPatientProcedure("cuentas-pagos", "payment.start")
    .input(ZStartPaymentInput)
    .mutation(({ ctx, input }) => startPayment(ctx.deps, ctx.user, input, ctx.meta)),
  commit: patientProcedure.input(ZCommitPaymentInput).mutation(({ ctx, input }) => commitPayment(ctx.deps, ctx.user, input, ctx.meta)),
  accountStatus: actingPatientProcedure("cuentas-pagos", "payment.status")
    .input(ZAccountStatusInput)
    .query(({ ctx, input }) => accountPaymentStatus(ctx.deps, ctx.user, input, ctx.meta)),
  /**
   * Settles the payments whose commit was lost (closed tab, network error) with status(token): the bills page calls it
   * on every visit (SPEC §4), then reloads the list when anything changed.
   */
  settleMine: actingPatientProcedure("cuentas-pagos", "payment.reconcile").mutation(async ({ ctx }) => ({
    settled: await settleMyPayments(ctx.deps, ctx.user, ctx.meta),
  })),
});
