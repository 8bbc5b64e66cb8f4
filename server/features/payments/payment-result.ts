import { clinicTitle } from "../../contract/clinics.ts";
import type { PaymentResult } from "../../contract/payments.dto.ts";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";

export type { PaymentResult };

// What the portal shows of a settled payment (SPEC §3 'Payment result fields read', §8 'Pago aceptado').

export const PAYMENT_DESCRIPTION = "Pago de cuentas hospitalarias";

/** Webpay payment type codes: VD débito, VP prepago, the rest credit (VN, VC, SI, S2, NC). */
export function paymentTypeLabel(code: string | null): string {
  if (!code) return "";
  if (code === "VD") return "Débito";
  if (code === "VP") return "Prepago";
  return "Crédito";
}

export function installmentTypeLabel(code: string | null, installments: number | null): string {
  switch (code) {
    case "VN":
      return "Sin cuotas";
    case "VC":
      return "Cuotas normales";
    case "SI":
      return "3 cuotas sin interés";
    case "S2":
      return "2 cuotas sin interés";
    case "NC":
      return `${installments ?? "N"} cuotas sin interés`;
    case "VD":
      return "Venta débito";
    case "VP":
      return "Venta prepago";
    default:
      return "";
  }
}

export function toPaymentResult(
  transaction: PaymentTransaction,
  bill: { id: number; accountCode: string; clinicCode: string },
): PaymentResult {
  return {
    approved: transaction.paidBill,
    status: transaction.status,
    failureReason: transaction.failureReason,
    buyOrder: transaction.buyOrder,
    accountId: bill.id,
    accountCode: bill.accountCode,
    amount: transaction.amount,
    merchantName: clinicTitle(bill.clinicCode),
    description: PAYMENT_DESCRIPTION,
    authorization_code: transaction.authorizationCode,
    transaction_date: transaction.transactionDate?.toISOString() ?? null,
    payment_type: paymentTypeLabel(transaction.paymentTypeCode),
    payment_type_code: transaction.paymentTypeCode,
    installment_type: installmentTypeLabel(transaction.paymentTypeCode, transaction.installmentsNumber),
    installments_number: transaction.installmentsNumber,
    installments_amount: transaction.installmentsAmount,
    card_number: transaction.cardNumber,
  };
}
