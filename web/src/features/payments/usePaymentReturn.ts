import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { useCommitPayment } from "./api/payments.api.ts";
import { announcePaymentOutcome } from "./payment-broadcast.ts";
import { showPaymentAccepted, showPaymentCancelled, showPaymentRejected } from "./payment-modals.ts";
import { readPaymentReturn, withoutPaymentParams } from "./payment-return.ts";

/**
 * Back from the payment provider on my-bills (SPEC §4 Payment flow 3–4): commits once with what the address carries,
 * removes the provider's parameters from the address (replace, so a reload or Back does not commit again), lets the
 * page reload its bills through `onSettled`, then shows 'Pago aceptado' or 'Pago rechazado'. The server answers the
 * stored result to a repeated commit, so even a second tab with the same address pays nothing twice.
 *
 * `settling` is true while the commit runs: the page may wait for it before loading the bills.
 */
export function usePaymentReturn(onSettled: () => void): { settling: boolean } {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const commit = useCommitPayment();
  const started = useRef(false);
  const paymentReturn = readPaymentReturn(params);
  const [settling, setSettling] = useState(paymentReturn !== null);
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;

  useEffect(() => {
    if (!paymentReturn || started.current) return;
    started.current = true;
    void navigate(withoutPaymentParams(location.pathname, params), { replace: true });
    const input =
      paymentReturn.kind === "timeout"
        ? { token_ws: "-1", buy_order: paymentReturn.buyOrder }
        : { token_ws: paymentReturn.token, buy_order: paymentReturn.buyOrder };
    commit.mutate(input, {
      onSuccess: (result) => {
        onSettledRef.current();
        announcePaymentOutcome();
        if (result.approved) void showPaymentAccepted(result);
        else if (paymentReturn.kind === "aborted") void showPaymentCancelled(paymentReturn.buyOrder ?? result.buyOrder);
        else void showPaymentRejected(paymentReturn.kind === "commit" ? result.buyOrder : (paymentReturn.buyOrder ?? result.buyOrder));
      },
      onError: () => {
        onSettledRef.current();
        announcePaymentOutcome();
        if (paymentReturn.kind === "aborted") void showPaymentCancelled(paymentReturn.buyOrder ?? "");
        else void showPaymentRejected(paymentReturn.buyOrder ?? "");
      },
      onSettled: () => setSettling(false),
    });
    // Runs once per return; the parameters are gone from the address right after.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { settling };
}
