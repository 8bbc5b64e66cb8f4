import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import { mockTransaction, payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { createBill, insertUser, plainRutOf, rutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { Role } from "../../server/contract/roles.ts";
import { createWebpayPlusClient } from "../../server/providers/payments/webpay-plus-payments.client.ts";
import { PaymentRefusedError } from "../../server/providers/payments/payments.provider.ts";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";

// Issue 28, payments: the receipt of a paid bill, 'Anular pago' by staff through Webpay Plus refunds, and the patient's
// 'Historial de pagos'. The Webpay mock's clock is the test's, so "3 hours after the sale" is a step of the clock.

let ctx: TestContext;
let patient: string;
let otherPatient: string;
let admin: string;
let executive: string;
let lircayExecutive: string;
const clock = { offsetMs: 0 };
const HOUR = 60 * 60 * 1000;

const start = (accountId: number, token = patient) =>
  ctx.app.inject({
    method: "POST",
    url: api("/payment/generate-transaction-new-prod"),
    headers: bearer(token),
    payload: { accountId, amount: 1, rcrLink: "http://clinicasur.localhost:4200" },
  });

/** A bill of the demo patient paid through the mock's form and committed, as a browser would. */
async function paidBill(card: Record<string, string> = testCards.visaApproved, fields: { clinicCode?: string; amount?: number } = {}) {
  const bill = await createBill(ctx.db.prisma, "12345678-5", { amount: 45_990, ...fields });
  const started = await start(bill.id);
  expect(started.statusCode).toBe(200);
  const { token } = started.json().payload as { token: string };
  await payAtForm(ctx.mocksUrl, token, card);
  const committed = await ctx.app.inject({
    method: "GET",
    url: api(`/payment/new-commit-prod?token_ws=${token}`),
    headers: bearer(patient),
  });
  expect(committed.json().payload.approved).toBe(true);
  return { bill, token };
}

const refund = (accountId: number, token: string, reason = "Cobro duplicado, el paciente pagó en caja") =>
  ctx.app.inject({ method: "POST", url: api("/payment/refund"), headers: bearer(token), payload: { accountId, reason } });
const receiptLink = (accountId: number, token: string) =>
  ctx.app.inject({ method: "GET", url: api(`/payment/receipt/${accountId}`), headers: bearer(token) });
const history = (token: string, page = 1) =>
  ctx.app.inject({ method: "GET", url: api(`/payment/history?page=${page}`), headers: bearer(token) });
const billOf = (id: number) => ctx.db.prisma.bill.findUniqueOrThrow({ where: { id } });

async function pdfText(content: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(content));
  return (await extractText(document, { mergePages: true })).text;
}

beforeAll(async () => {
  // A short provider timeout, so that a refund whose answer the mock holds is a timeout in this test.
  ctx = await createTestContext({ WEBPAY_TIMEOUT_MS: "1000" }, { webpay: { now: () => new Date(Date.now() + clock.offsetMs) } });
  await insertUser(ctx.db.prisma, {
    rut: plainRutOf(23_456_789),
    email: "lircay@portalpacientes.cl",
    roleType: Role.executive,
    password: "Ejecutivo2026",
    clinics: ["lircay-rcr"],
  });
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
  otherPatient = await ctx.login(rutOf(17_000_000), "Paciente2026");
  admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  lircayExecutive = await ctx.login(rutOf(23_456_789), "Ejecutivo2026", "staff");
});
afterAll(() => ctx.close());

describe("the receipt of a paid bill", () => {
  it("is a PDF written from the stored payment result: clinic, patient, account, amount, order, authorization, card, Chile time", async () => {
    const { bill, token } = await paidBill();
    const stored = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token } });
    const link = await receiptLink(bill.id, patient);
    expect(link.statusCode).toBe(200);
    const { url, fileName } = link.json().payload as { url: string; fileName: string };
    expect(fileName).toBe(`comprobante-cuenta-${bill.accountCode}.pdf`);
    const download = await ctx.app.inject({ method: "GET", url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["cache-control"]).toBe("no-store");
    const text = await pdfText(download.rawPayload);
    expect(text).toContain("Hospital Clínico del Sur");
    expect(text).toContain("12.345.678-5");
    expect(text).toContain(bill.accountCode);
    expect(text).toContain("$ 45.990");
    expect(text).toContain(stored.buyOrder);
    expect(text).toContain(stored.authorizationCode!);
    expect(text).toContain("**** **** **** 6623");
    const chile = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Santiago", dateStyle: "short", timeStyle: "short" })
      .format(stored.transactionDate!)
      .replace(/^(\d{4})-(\d{2})-(\d{2})/, "$3-$2-$1");
    expect(text).toContain(`${chile} (hora de Chile)`);
    const audited = await ctx.db.prisma.auditEvent.findMany({ where: { action: "payment.receipt.download", resourceId: stored.buyOrder } });
    expect(audited).toHaveLength(1);
  });

  it("is refused to another patient exactly like a missing bill, and the try is audited", async () => {
    const { bill } = await paidBill();
    const refused = await receiptLink(bill.id, otherPatient);
    expect(refused.statusCode).toBe(404);
    expect((await receiptLink(2_000_000_000, otherPatient)).json().message).toBe(refused.json().message);
    expect(
      await ctx.db.prisma.auditEvent.count({ where: { action: "payment.receipt.link", resourceId: String(bill.id), outcome: "denied" } }),
    ).toBe(1);
  });

  it("reaches staff of the bill's clinic only: an executive of another clinic gets 404", async () => {
    const { bill } = await paidBill();
    expect((await receiptLink(bill.id, admin)).statusCode).toBe(200);
    expect((await receiptLink(bill.id, executive)).statusCode).toBe(200);
    expect((await receiptLink(bill.id, lircayExecutive)).statusCode).toBe(404);
  });

  it("does not exist for an unpaid bill, and a link for one payment does not open another", async () => {
    const unpaid = await createBill(ctx.db.prisma, "12345678-5");
    expect((await receiptLink(unpaid.id, patient)).statusCode).toBe(404);
    const first = await paidBill();
    const second = await paidBill();
    const { url } = (await receiptLink(first.bill.id, patient)).json().payload as { url: string };
    const secondOrder = (await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token: second.token } })).buyOrder;
    const swapped = url.replace(/download\/[^?]+/, `download/${secondOrder}`);
    expect((await ctx.app.inject({ method: "GET", url: swapped })).statusCode).toBe(403);
  });
});

describe("which bills offer 'Comprobante' (tRPC payments.receiptAccounts)", () => {
  it("lists the patient's bills paid by card and in force: not one marked paid by staff, nor a refunded one", async () => {
    const caller = createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${patient}`));
    const { bill: paidByCard } = await paidBill();
    const { bill: refunded } = await paidBill();
    await refund(refunded.id, admin);
    const markedPaid = await createBill(ctx.db.prisma, "12345678-5", { isPaid: true });
    const { accountIds } = await caller.payments.receiptAccounts();
    expect(accountIds).toContain(paidByCard.id);
    expect(accountIds).not.toContain(refunded.id);
    expect(accountIds).not.toContain(markedPaid.id);
    const staffCaller = createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${admin}`));
    await expect(staffCaller.payments.receiptAccounts()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("'Anular pago' by staff", () => {
  it("reverses a full refund within 3 hours of the sale: the bill returns to 'Pendiente', recorded, audited, mailed", async () => {
    const { bill, token } = await paidBill();
    const answer = await refund(bill.id, executive);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().payload).toMatchObject({
      status: "CONFIRMED",
      type: "REVERSED",
      amount: 45_990,
      requestedBy: "Ernesto Ejecutivo",
    });
    expect((await billOf(bill.id)).isPaid).toBe(false);
    const stored = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token }, include: { refund: true } });
    expect(stored.status).toBe("REVERSED");
    expect(stored.refund).toMatchObject({ reason: "Cobro duplicado, el paciente pagó en caja", providerAnswer: { type: "REVERSED" } });
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "payment.refund", resourceId: stored.buyOrder, outcome: "ok" } })).toBe(
      1,
    );
    // Mail goes through the durable queue: wait for this bill's notice (an earlier test's may arrive meanwhile).
    const mail = await vi.waitFor(
      async () => {
        const notices = await ctx.mail.list("paciente@portalpacientes.cl");
        const notice = notices.find((message) => message.text.includes(`N° ${bill.accountCode} `));
        if (!notice) throw new Error("no refund notice yet");
        return notice;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(mail.subject).toBe("Portal Pacientes - Pago anulado");
    expect(mail.text).toContain(`cuenta hospitalaria N° ${bill.accountCode} por $ 45.990`);
    expect(mail.text).toContain("Motivo: Cobro duplicado");
  });

  it("is a nullification after 3 hours, with the provider's authorization code, nullified amount and balance", async () => {
    const { bill, token } = await paidBill();
    clock.offsetMs = 3 * HOUR + 60_000;
    try {
      const answer = await refund(bill.id, admin);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().payload).toMatchObject({ status: "CONFIRMED", type: "NULLIFIED" });
      expect(answer.json().payload.authorizationCode).toMatch(/^\d{6}$/);
      const stored = await ctx.db.prisma.paymentRefund.findFirstOrThrow({ where: { transaction: { token } } });
      expect(stored).toMatchObject({ nullifiedAmount: 45_990, balance: 0, responseCode: 0 });
      expect(stored.authorizationDate).toBeInstanceOf(Date);
      expect((await mockTransaction(ctx.mocksUrl, token)).status).toBe("NULLIFIED");
      expect((await billOf(bill.id)).isPaid).toBe(false);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it("makes one refund when two staff members ask at once, and answers a repeat with the same refund", async () => {
    const { bill, token } = await paidBill();
    const answers = await Promise.all([refund(bill.id, admin), refund(bill.id, executive)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers[0]!.json().payload).toEqual(answers[1]!.json().payload);
    const again = await refund(bill.id, admin, "Otra vez");
    expect(again.json().payload).toEqual(answers[0]!.json().payload);
    const atProvider = await mockTransaction(ctx.mocksUrl, token);
    expect(atProvider.calls.refund).toBe(1);
    expect(atProvider.refunds).toHaveLength(1);
    expect(await ctx.db.prisma.paymentRefund.count({ where: { transaction: { token } } })).toBe(1);
  });

  it("is refused to a patient (403) and to an executive of another clinic (404), with nothing refunded", async () => {
    const { bill, token } = await paidBill();
    expect((await refund(bill.id, patient)).statusCode).toBe(403);
    expect((await refund(bill.id, lircayExecutive)).statusCode).toBe(404);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.refund).toBe(0);
    expect((await billOf(bill.id)).isPaid).toBe(true);
  });

  it("requires a reason and refuses a bill without a card payment, in Spanish, changing nothing", async () => {
    const { bill, token } = await paidBill();
    const blank = await refund(bill.id, admin, "   ");
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe("Indique el motivo de la anulación");
    expect((await refund(bill.id, admin, "no")).json().message).toBe("El motivo debe tener al menos 5 caracteres");
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.refund).toBe(0);
    const markedPaid = await createBill(ctx.db.prisma, "12345678-5", { isPaid: true });
    const none = await refund(markedPaid.id, admin);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe("Esta cuenta no tiene un pago con tarjeta que se pueda anular");
  });

  it("leaves the bill paid and says so in Spanish when Webpay fails, then a retry refunds it", async () => {
    const { bill, token } = await paidBill();
    await fetch(`${ctx.mocksUrl}/webpay/mock/fault?refundOutage=1`, { method: "PUT" });
    try {
      const failed = await refund(bill.id, admin);
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toMatch(/^Webpay no respondió, así que la cuenta sigue pagada/);
      expect((await billOf(bill.id)).isPaid).toBe(true);
      expect(await ctx.db.prisma.auditEvent.count({ where: { action: "payment.refund", outcome: "failed" } })).toBeGreaterThan(0);
    } finally {
      await fetch(`${ctx.mocksUrl}/webpay/mock/fault`, { method: "PUT" });
    }
    const retried = await refund(bill.id, admin);
    expect(retried.json().payload.status).toBe("CONFIRMED");
    expect((await mockTransaction(ctx.mocksUrl, token)).refunds).toHaveLength(1);
  });

  it("confirms on retry a refund Webpay made while its answer was lost (the provider hung)", async () => {
    const { bill, token } = await paidBill();
    await fetch(`${ctx.mocksUrl}/webpay/mock/fault?refundDelayMs=2500`, { method: "PUT" });
    try {
      const hung = await refund(bill.id, admin);
      expect(hung.statusCode).toBe(504);
      expect((await billOf(bill.id)).isPaid).toBe(true);
    } finally {
      await fetch(`${ctx.mocksUrl}/webpay/mock/fault`, { method: "PUT" });
    }
    const retried = await refund(bill.id, admin);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().payload).toMatchObject({ status: "CONFIRMED", type: "REVERSED" });
    expect((await billOf(bill.id)).isPaid).toBe(false);
    expect((await mockTransaction(ctx.mocksUrl, token)).refunds).toHaveLength(1);
  });
});

describe("Webpay Plus refunds through the portal's provider client (the mock as Transbank documents it)", () => {
  it("refuses a partial refund of a debit sale, and a refund above the amount, with 422 and an error_message", async () => {
    const { token } = await paidBill(testCards.redcompraDebit);
    expect((await mockTransaction(ctx.mocksUrl, token)).paymentTypeCode).toBe("VD");
    const client = createWebpayPlusClient(ctx.config);
    const partial = await client.refund(token, 10_000).catch((error: unknown) => error);
    expect(partial).toBeInstanceOf(PaymentRefusedError);
    expect(partial).toMatchObject({ httpStatus: 422, providerMessage: "Partial nullification is not allowed for payment type VD" });
    const above = await client.refund(token, 45_991).catch((error: unknown) => error);
    expect(above).toMatchObject({ httpStatus: 422, providerMessage: "Invalid value for parameter: amount" });
    expect(await client.refund(token, 45_990)).toEqual({ type: "REVERSED" });
  });

  it("nullifies part of a credit sale after 3 hours, leaving the rest as balance", async () => {
    const { token } = await paidBill();
    clock.offsetMs = 4 * HOUR;
    try {
      const client = createWebpayPlusClient(ctx.config);
      expect(await client.refund(token, 5_990)).toMatchObject({
        type: "NULLIFIED",
        nullified_amount: 5_990,
        balance: 40_000,
        response_code: 0,
      });
      expect((await client.status(token)).status).toBe("PARTIALLY_NULLIFIED");
    } finally {
      clock.offsetMs = 0;
    }
  });
});

describe("'Historial de pagos'", () => {
  it("lists every attempt of the patient with its result, newest first, and only the patient's own", async () => {
    const { bill: refunded } = await paidBill();
    await refund(refunded.id, admin);
    const rejectedBill = await createBill(ctx.db.prisma, "12345678-5");
    const rejectedToken = (await start(rejectedBill.id)).json().payload.token as string;
    await payAtForm(ctx.mocksUrl, rejectedToken, testCards.mastercardRejected);
    await ctx.app.inject({ method: "GET", url: api(`/payment/new-commit-prod?token_ws=${rejectedToken}`), headers: bearer(patient) });
    const pendingBill = await createBill(ctx.db.prisma, "12345678-5");
    await start(pendingBill.id);
    const { bill: accepted } = await paidBill();

    const answer = await history(patient);
    expect(answer.statusCode).toBe(200);
    const { items, total } = answer.json().payload as {
      items: Array<{ accountId: number; result: string; hasReceipt: boolean }>;
      total: number;
    };
    expect(total).toBeGreaterThanOrEqual(4);
    expect(items.slice(0, 4).map((item) => [item.accountId, item.result])).toEqual([
      [accepted.id, "aceptado"],
      [pendingBill.id, "pendiente"],
      [rejectedBill.id, "rechazado"],
      [refunded.id, "anulado"],
    ]);
    expect(items[0]).toMatchObject({ hasReceipt: true, amount: 45_990, accountCode: accepted.accountCode });

    const others = (await history(otherPatient)).json().payload as { items: Array<{ accountId: number }> };
    expect(others.items.map((item) => item.accountId)).not.toContain(accepted.id);
    expect((await history(admin)).statusCode).toBe(403);
    expect((await history(patient, 0)).statusCode).toBe(400);
  });
});
