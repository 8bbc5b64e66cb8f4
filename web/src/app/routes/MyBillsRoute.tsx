import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { MyBillsView } from "../../features/bills/MyBillsView.tsx";
import { PayBillButton, usePaymentReturn } from "../../features/payments/index.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * /dashboard/my-bills (SPEC §2 My bills, §4 payment flow): the patient's bills with card payment plugged into the
 * 'Pagar' column. The page is also Webpay's return address: a return is committed once, then the list reloads. Each
 * visit also settles payments whose commit was lost (a closed tab), and reloads the list when one changed.
 */
export default function MyBillsRoute() {
  return (
    <>
      <PaymentUpkeep />
      <MyBillsView renderPayAction={(bill) => <PayBillButton bill={bill} />} />
    </>
  );
}

/**
 * The visit's payment work, which shows nothing itself (its notices are overlays). A component of its own so that its
 * requests' progress re-renders only it, not the list (issue 14: each re-render of the list is main-thread time).
 */
function PaymentUpkeep() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reloadBills = () => void queryClient.invalidateQueries({ queryKey: trpc.bills.mine.queryKey() });
  usePaymentReturn(reloadBills);
  const settle = useMutation(trpc.payments.settleMine.mutationOptions({ onSuccess: ({ settled }) => settled > 0 && reloadBills() }));
  const settleOnVisit = settle.mutate;
  useEffect(() => settleOnVisit(), [settleOnVisit]);
  return null;
}
