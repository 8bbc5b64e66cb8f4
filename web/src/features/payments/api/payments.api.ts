import { useMutation } from "@tanstack/react-query";
import { errorCode, errorMessage, useTRPC } from "../../../lib/trpc.ts";

// The payments feature's calls to the server (tRPC payments.*): components use these hooks, never the client directly.

type Trpc = ReturnType<typeof useTRPC>;
type SettleOptions = Parameters<Trpc["payments"]["settleMine"]["mutationOptions"]>[0];

/** SPEC §8: a failed transaction start. */
const startFailedMessage = "error de sistema vuelva a intentarlo";

/** A paid bill or a payment in progress: the server's reason helps; anything else gets SPEC §8's text. */
const startFailedToast = (error: unknown) =>
  errorCode(error) === "CONFLICT" ? errorMessage(error, startFailedMessage) : startFailedMessage;

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
