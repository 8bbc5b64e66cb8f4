// What pages use of the payments feature.
export { PayBillButton } from "./PayBillButton.tsx";
export { usePaymentReturn } from "./usePaymentReturn.ts";
export { useSettleMyPayments } from "./api/payments.api.ts";
export { usePaymentOutcomes } from "./payment-broadcast.ts";
export { PatientReceiptButton } from "./ReceiptButton.tsx";
export { PaymentHistory } from "./PaymentHistory.tsx";
export { RefundPaymentSection } from "./RefundPaymentSection.tsx";
export { useReloadPaymentHistory } from "./api/payment-records.api.ts";
