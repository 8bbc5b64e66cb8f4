import { useEffect } from "react";
import { useReloadMyBills } from "../../features/bills/api/bills.api.ts";
import { MyBillsView } from "../../features/bills/MyBillsView.tsx";
import {
  PayBillButton,
  PaymentHistory,
  PatientReceiptButton,
  usePaymentOutcomes,
  usePaymentReturn,
  useReloadPaymentHistory,
  useSettleMyPayments,
} from "../../features/payments/index.ts";

/**
 * /dashboard/my-bills (SPEC §2 My bills, §4 payment flow): the patient's bills with card payment plugged into the
 * 'Pagar' column. The page is also Webpay's return address: a return is committed once, then the list reloads. Each
 * visit also settles payments whose commit was lost (a closed tab), and reloads the list when one changed. Paid bills
 * offer their 'Comprobante', and 'Historial de pagos' follows the list (issue 28).
 */
export default function MyBillsRoute() {
  return (
    <>
      <PaymentUpkeep />
      <MyBillsView
        renderPayAction={(bill) => <PayBillButton bill={bill} />}
        renderPaidAction={(bill) => <PatientReceiptButton bill={bill} />}
        footer={<PaymentHistory />}
      />
    </>
  );
}

/**
 * The visit's payment work, which shows nothing itself (its notices are overlays). A component of its own so that its
 * requests' progress re-renders only it, not the list (issue 14: each re-render of the list is main-thread time).
 */
function PaymentUpkeep() {
  const reloadMyBills = useReloadMyBills();
  const reloadHistory = useReloadPaymentHistory();
  const reloadBills = () => {
    reloadMyBills();
    reloadHistory();
  };
  usePaymentReturn(reloadBills);
  usePaymentOutcomes(reloadBills);
  const settle = useSettleMyPayments({ onSuccess: ({ settled }) => settled > 0 && reloadBills() });
  const settleOnVisit = settle.mutate;
  useEffect(() => settleOnVisit(), [settleOnVisit]);
  return null;
}
