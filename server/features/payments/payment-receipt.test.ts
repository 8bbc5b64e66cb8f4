import { describe, expect, it } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import type { PaymentTransaction } from "../../generated/prisma/client.ts";
import { attemptDetail, attemptResult } from "./payment-history.ts";
import { chileDateTime, receiptData, receiptPdf } from "./payment-receipt.ts";

const paid = {
  id: 7,
  billId: 31,
  userId: 4,
  clinicKey: "hcs-rcr",
  buyOrder: "31-mwx1a2b3-9f3a1c",
  sessionId: "u4-abc",
  token: "a".repeat(64),
  amount: 1_234_567,
  status: "AUTHORIZED",
  failureReason: null,
  commitClaimedAt: null,
  committedAt: new Date("2026-11-26T15:05:10Z"),
  paidBill: true,
  responseCode: 0,
  vci: "TSY",
  authorizationCode: "123456",
  // 12:04 in Santiago (UTC-3 in November).
  transactionDate: new Date("2026-11-26T15:04:59.123Z"),
  accountingDate: "1126",
  paymentTypeCode: "SI",
  installmentsNumber: 3,
  installmentsAmount: 411_522,
  cardNumber: "6623",
  payerId: null,
  createdAt: new Date("2026-11-26T15:03:00Z"),
  updatedAt: new Date("2026-11-26T15:05:10Z"),
} satisfies PaymentTransaction;

const patient = { rut: "12345678-5", firstName: "María", secondName: null, lastName: "Muñoz", secondLastName: "Peña" };

async function textOf(pdf: Uint8Array): Promise<string> {
  return (await extractText(await getDocumentProxy(pdf), { mergePages: true })).text;
}

describe("the payment receipt", () => {
  it("carries clinic, patient, account, amount in CLP, order, authorization, card's last four and Chile's date and time", async () => {
    const data = receiptData(paid, { accountCode: "880123", clinicCode: "hcs-rcr" }, patient);
    const text = await textOf(await receiptPdf(data, new Date("2026-11-27T13:00:00Z")));
    for (const expected of [
      "Hospital Clínico del Sur",
      "Comprobante de pago",
      "María Muñoz Peña",
      "12.345.678-5",
      "N° de cuenta",
      "880123",
      "$ 1.234.567",
      "31-mwx1a2b3-9f3a1c",
      "123456",
      "**** **** **** 6623",
      "Crédito",
      "3 cuotas sin interés",
      "26-11-2026 12:04 (hora de Chile)",
      "Emitido el 27-11-2026 10:00",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("writes dates as dd-mm-aaaa HH:mm in Santiago, in winter time too", () => {
    expect(chileDateTime(new Date("2026-07-01T03:30:00Z"))).toBe("30-06-2026 23:30");
  });
});

describe("what became of a payment attempt", () => {
  it("names each outcome as the patient reads it", () => {
    expect(attemptResult(paid)).toBe("aceptado");
    expect(attemptResult({ status: "INITIALIZED", paidBill: false })).toBe("pendiente");
    expect(attemptResult({ status: "REVERSED", paidBill: false })).toBe("anulado");
    expect(attemptResult({ status: "NULLIFIED", paidBill: false })).toBe("anulado");
    expect(attemptResult({ status: "FAILED", paidBill: false })).toBe("rechazado");
    // Authorized for another amount or order: never counted as paid.
    expect(attemptResult({ status: "AUTHORIZED", paidBill: false })).toBe("rechazado");
    expect(attemptDetail({ status: "FAILED", paidBill: false, failureReason: "aborted" }, false)).toBe("El pago se canceló en Webpay");
    expect(attemptDetail({ status: "REVERSED", paidBill: false, failureReason: null }, true)).toMatch(/^La clínica anuló el pago/);
  });
});
