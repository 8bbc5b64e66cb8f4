import { useState } from "react";
import { Button } from "../../components/ui/Button.tsx";
import { currentClinic, currentPortalLink } from "../../lib/clinic.ts";
import { formatChileDateTime } from "../../lib/dates.ts";
import { paymentInProgressMessage, useCheckPaymentStatus, useStartPayment } from "./api/payments.api.ts";
import { announcePaymentOutcome } from "./payment-broadcast.ts";
import "./payments.css";

export interface PayableBill {
  id: number;
  accountCode: string;
  amount: number;
  isPaid: boolean;
}

/**
 * Posts token_ws to the provider's payment form in the tab opened for it (Webpay documents a form POST; the CSP's
 * form-action allows the form's origin).
 */
function postToPaymentForm(url: string, token: string, target: string): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = url;
  form.target = target;
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "token_ws";
  field.value = token;
  form.append(field);
  document.body.append(form);
  form.submit();
  form.remove();
}

/**
 * 'Pagar' (SPEC §4 Payment flow 1–2): starts a transaction for the bill and opens the provider's form with token_ws in
 * a new tab. The tab is opened in the click itself (so no popup blocker stops it) and filled once the server answers.
 * Does nothing on a paid bill. The server takes the amount from the stored bill; the one sent here is only the spec's.
 */
export function PayBillButton({ bill }: { bill: PayableBill }) {
  const start = useStartPayment();
  const checkStatus = useCheckPaymentStatus();
  // Issue 33: a payment left in progress (its tab closed) is told on the row, with until when and a way to ask now.
  const [inProgress, setInProgress] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [stillAt, setStillAt] = useState<string | null>(null);

  async function checkNow() {
    setChecking(true);
    try {
      const status = await checkStatus(bill.id);
      if (status.isPaid || !status.paymentInProgress) {
        setInProgress(null);
        // Every tab, this one included, reloads its bills: the bill may be paid now.
        announcePaymentOutcome();
      } else {
        setStillAt(formatChileDateTime(new Date().toISOString()).slice(11));
      }
    } catch {
      // The toast is the status call's meta.errorToast.
    } finally {
      setChecking(false);
    }
  }

  function pay() {
    if (bill.isPaid || start.isPending) return;
    const target = `webpay-${bill.id}-${Date.now()}`;
    const tab = window.open("about:blank", target);
    start.mutate(
      { accountId: bill.id, amount: bill.amount, rcrLink: currentPortalLink(), clinicCode: currentClinic().key },
      {
        onSuccess: ({ url, token }) => postToPaymentForm(url, token, tab ? target : "_blank"),
        // The toast is the start's meta.errorToast (api/payments.api.ts).
        onError: (error) => {
          tab?.close();
          setInProgress(paymentInProgressMessage(error));
          setStillAt(null);
        },
      },
    );
  }

  return (
    <>
      <Button
        variant="primary"
        className="pay-bill-button"
        onClick={pay}
        disabled={bill.isPaid || start.isPending}
        aria-label={`Pagar cuenta ${bill.accountCode}`}
      >
        Pagar
      </Button>
      {inProgress ? (
        <div className="pay-in-progress" role="status">
          <p>{inProgress}</p>
          {stillAt ? <p>Consultado a las {stillAt}: el pago sigue en curso.</p> : null}
          <Button variant="link" onClick={() => void checkNow()} disabled={checking}>
            Consultar estado ahora
          </Button>
        </div>
      ) : null}
    </>
  );
}
