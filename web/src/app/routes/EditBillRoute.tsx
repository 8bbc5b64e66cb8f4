import { useReloadBills } from "../../features/bills/api/bills.api.ts";
import EditBillPage from "../../features/bills/EditBillPage.tsx";
import { RefundPaymentSection } from "../../features/payments/RefundPaymentSection.tsx";

/**
 * /admin/edit-bills (SPEC §2 Create/edit bill): the bill form, and under a stored bill its card payment with
 * 'Comprobante' and 'Anular pago' (issue 28). A refund changes the bill's status, so the form is read again.
 */
export default function EditBillRoute() {
  const reloadBills = useReloadBills();
  return <EditBillPage renderPaymentSection={(bill) => <RefundPaymentSection bill={bill} onRefunded={() => void reloadBills()} />} />;
}
