import { useQueryClient } from "@tanstack/react-query";
import { MyBillsView } from "../../features/bills/MyBillsView.tsx";
import { PayBillButton, usePaymentReturn } from "../../features/payments/index.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * /dashboard/my-bills (SPEC §2 My bills, §4 payment flow): the patient's bills with card payment plugged into the
 * 'Pagar' column. The page is also Webpay's return address: a return is committed once, then the list reloads.
 */
export default function MyBillsRoute() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  usePaymentReturn(() => void queryClient.invalidateQueries({ queryKey: trpc.bills.mine.queryKey() }));
  return <MyBillsView renderPayAction={(bill) => <PayBillButton bill={bill} />} />;
}
