import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "../../../lib/trpc.ts";

// Issue 28's calls (tRPC payments.*): the patient's 'Historial de pagos', receipt links, and staff refunds.

/** SPEC §8's system error, which the history's in-page failure repeats. */
export const systemError = "error de sistema vuelva a intentarlo";

/** The patient's payment attempts, newest first (10 a page); the page says a failure in its place. */
export function usePaymentHistory(page: number) {
  const trpc = useTRPC();
  return useQuery(trpc.payments.history.queryOptions({ page }, { placeholderData: keepPreviousData }));
}

/** Reloads the history (after a payment's outcome is known). */
export function useReloadPaymentHistory(): () => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.payments.history.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.payments.receiptAccounts.queryKey() });
  };
}

/** The patient's bills that have a receipt (a bill marked paid without a card payment has none). */
export function useReceiptAccounts() {
  const trpc = useTRPC();
  return useQuery(trpc.payments.receiptAccounts.queryOptions(undefined, { staleTime: 30_000 }));
}

/** A short-lived link to a paid bill's receipt; a refusal's toast carries the server's reason. */
export function useReceiptLink() {
  const trpc = useTRPC();
  return useMutation(trpc.payments.receiptLink.mutationOptions({ meta: { errorToast: (error) => errorMessage(error, systemError) } }));
}

/** The bill's card payment and its refund, for the staff bill page. */
export function useBillPayment(accountId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.payments.billPayment.queryOptions({ accountId }, { staleTime: 0 }));
}

/** 'Anular pago'; the section shows a refusal in its place (no toast), then reloads the payment. */
export function useRefundPayment() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.payments.refund.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.payments.billPayment.queryKey() }),
    }),
  );
}
