// Transbank's published integration test cards and what each one does in the integration environment
// (https://www.transbankdevelopers.cl/documentacion/como_empezar#tarjetas-de-prueba).

export type CardKind = "credit" | "debit" | "prepaid";

export interface TestCard {
  number: string;
  brand: string;
  kind: CardKind;
  approved: boolean;
  /** Credit cards ask for expiry and CVV; debit cards go through the bank simulator (RUT and password). */
  cvv?: string;
}

export const testCards: TestCard[] = [
  { number: "4051885600446623", brand: "VISA", kind: "credit", approved: true, cvv: "123" },
  { number: "370000000002032", brand: "AMEX", kind: "credit", approved: true, cvv: "1234" },
  { number: "5186059559590568", brand: "MASTERCARD", kind: "credit", approved: false, cvv: "123" },
  { number: "4051884239937763", brand: "Redcompra", kind: "debit", approved: true },
  { number: "5186008541233829", brand: "Redcompra", kind: "debit", approved: false },
  { number: "4051886000056590", brand: "Prepago VISA", kind: "prepaid", approved: true, cvv: "123" },
];

/** The bank simulator's only account (debit cards). */
export const bankSimulatorLogin = { rut: "11111111-1", password: "123" };

export function findTestCard(rawNumber: string): TestCard | undefined {
  const digits = rawNumber.replace(/[\s-]/g, "");
  return testCards.find((card) => card.number === digits);
}

/** Installment options a credit card offers, with the payment type code Webpay reports for each. */
export const installmentOptions = [
  { count: 1, label: "Sin cuotas", paymentTypeCode: "VN" },
  { count: 2, label: "2 cuotas sin interés", paymentTypeCode: "S2" },
  { count: 3, label: "3 cuotas sin interés", paymentTypeCode: "SI" },
  { count: 6, label: "6 cuotas normales", paymentTypeCode: "VC" },
  { count: 12, label: "12 cuotas normales", paymentTypeCode: "VC" },
] as const;
