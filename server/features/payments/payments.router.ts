import { actingPatientProcedure, actingUserProcedure, patientProcedure, router, staffProcedure } from "../../trpc/trpc.ts";
import { accountPaymentStatus, commitPayment, settleMyPayments, startPayment } from "./payments.service.ts";
import { paymentHistory, receiptAccounts } from "./payment-history.ts";
import { receiptLink } from "./payment-receipt.service.ts";
import { billPayment, refundPayment } from "./payment-refund.service.ts";
import {
  ZAccountStatusInput,
  ZBillPaymentInput,
  ZCommitPaymentInput,
  ZPaymentHistoryInput,
  ZRefundPaymentInput,
  ZStartPaymentInput,
} from "../../contract/payments.schemas.ts";

// tRPC over the same services as the REST routes; each service checks who asks too.

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
  /** 'Historial de pagos' of the patient (issue 28). */
  history: actingPatientProcedure("cuentas-pagos", "payment.history")
    .input(ZPaymentHistoryInput)
    .query(({ ctx, input }) => paymentHistory(ctx.deps, ctx.user, input, ctx.meta)),
  /** The patient's bills that have a receipt ('Comprobante' shows on those only). */
  receiptAccounts: actingPatientProcedure("cuentas-pagos", "payment.history").query(({ ctx }) =>
    receiptAccounts(ctx.deps, ctx.user, ctx.meta),
  ),
  /** A signed link to the receipt of a paid bill: its patient, or staff with reach over it. */
  receiptLink: actingUserProcedure("cuentas-pagos", "payment.receipt.link")
    .input(ZBillPaymentInput)
    .mutation(({ ctx, input }) => receiptLink(ctx.deps, ctx.user, input, ctx.meta)),
  /** The bill's card payment and its refund, for the staff bill page. */
  billPayment: staffProcedure("payment.read")
    .input(ZBillPaymentInput)
    .query(({ ctx, input }) => billPayment(ctx.deps, ctx.user, input, ctx.meta)),
  /** 'Anular pago' (admins, executives of the bill's clinic). */
  refund: staffProcedure("payment.refund")
    .input(ZRefundPaymentInput)
    .mutation(({ ctx, input }) => refundPayment(ctx.deps, ctx.user, input, ctx.meta)),
});
