// What pages use of the payments feature. The staff's 'Anular pago' (RefundPaymentSection.tsx, with zod for its form)
// is imported from its own file: through here it joined the patient's bills page's chunk and brought zod (issue 26).
export { PayBillButton } from "./PayBillButton.tsx";
export { usePaymentReturn } from "./usePaymentReturn.ts";
export { useSettleMyPayments } from "./api/payments.api.ts";
export { usePaymentOutcomes } from "./payment-broadcast.ts";
export { PatientReceiptButton } from "./ReceiptButton.tsx";
export { PaymentHistory } from "./PaymentHistory.tsx";
export { useReloadPaymentHistory } from "./api/payment-records.api.ts";
