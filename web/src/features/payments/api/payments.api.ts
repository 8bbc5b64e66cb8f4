import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorCode, errorMessage, useTRPC } from "../../../lib/trpc.ts";

// The payments feature's calls to the server (tRPC payments.*): components use these hooks, never the client directly.

type Trpc = ReturnType<typeof useTRPC>;
type SettleOptions = Parameters<Trpc["payments"]["settleMine"]["mutationOptions"]>[0];

/** SPEC §8: a failed transaction start. */
const startFailedMessage = "error de sistema vuelva a intentarlo";

/**
 * The server's refusal of a new payment while one is in progress (its message says until when), or null. The bill's
 * row shows it with 'Consultar estado ahora' (PayBillButton), so it is not also a toast.
 */
export function paymentInProgressMessage(error: unknown): string | null {
  const message = errorCode(error) === "CONFLICT" ? errorMessage(error, "") : "";
  return message.startsWith("Ya hay un pago en curso") ? message : null;
}

/** A paid bill: the server's reason helps; a payment in progress: told on the row; anything else gets SPEC §8's text. */
const startFailedToast = (error: unknown) =>
  paymentInProgressMessage(error) !== null
    ? null
    : errorCode(error) === "CONFLICT"
      ? errorMessage(error, startFailedMessage)
      : startFailedMessage;

/** Starts a Webpay transaction for a bill. */
export function useStartPayment() {
  const trpc = useTRPC();
  return useMutation(trpc.payments.start.mutationOptions({ meta: { errorToast: startFailedToast } }));
}

/** Commits the provider's return (SPEC §4 Payment flow 3); a failure's toast carries the server's message. */
export function useCommitPayment() {
  const trpc = useTRPC();
  return useMutation(
    trpc.payments.commit.mutationOptions({ meta: { errorToast: (error) => errorMessage(error, "error de sistema vuelva a intentarlo") } }),
  );
}

/** Settles the patient's payments whose commit was lost (a closed tab); quiet on failure, the next visit retries. */
export function useSettleMyPayments(options: SettleOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.payments.settleMine.mutationOptions(options));
}

/** Asks now whether a bill is paid or still has a payment in progress (the server settles lost commits first). */
export function useCheckPaymentStatus() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (accountId: number) =>
    queryClient.fetchQuery({
      ...trpc.payments.accountStatus.queryOptions({ accountId }),
      staleTime: 0,
      meta: { errorToast: startFailedMessage },
    });
}
