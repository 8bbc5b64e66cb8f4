import { useEffect, useRef } from "react";

// Every open tab of the portal learns a payment's outcome (issue 33): Webpay returns to the tab it opened, so the tab
// the patient paid from would keep offering 'Pagar' on a bill already paid. The returning tab announces the outcome on
// a BroadcastChannel (same origin only, so one clinic's portal) and the others reload their bills. Browsers without
// BroadcastChannel still reload on focus (api/bills.api.ts).

const CHANNEL = "portal-pacientes-pagos";
const MESSAGE = "payment-settled";

/** Tells the portal's other tabs that a payment ended (paid, rejected or cancelled). */
export function announcePaymentOutcome(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(MESSAGE);
  channel.close();
}

/** Calls `onOutcome` when another tab announces a payment's outcome. */
export function usePaymentOutcomes(onOutcome: () => void): void {
  const callback = useRef(onOutcome);
  callback.current = onOutcome;
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === MESSAGE) callback.current();
    };
    return () => channel.close();
  }, []);
}
