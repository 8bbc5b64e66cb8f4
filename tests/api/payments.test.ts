import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { abortAtForm, mockTransaction, payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { createBill, plainRutOf, rutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
let patientToken: string;
const otherPatient = { rut: rutOf(17_000_000), password: "Paciente2026" };

const start = (accountId: number, extra: object = {}, token = patientToken) =>
  ctx.app.inject({
    method: "POST",
    url: api("/payment/generate-transaction-new-prod"),
    headers: bearer(token),
    payload: { accountId, amount: 1, rcrLink: "http://clinicasur.localhost:4200", clinicCode: "hcs-rcr", ...extra },
  });

const commit = (query: Record<string, string>, token = patientToken) =>
  ctx.app.inject({ method: "GET", url: api(`/payment/new-commit-prod?${new URLSearchParams(query)}`), headers: bearer(token) });

async function startedPayment(amount = 45_990) {
  const bill = await createBill(ctx.db.prisma, "12345678-5", { amount });
  const response = await start(bill.id);
  expect(response.statusCode).toBe(200);
  const { token, url } = response.json().payload as { token: string; url: string };
  return { bill, token, url };
}

const billOf = (id: number) => ctx.db.prisma.bill.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  ctx = await createTestContext();
  patientToken = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

describe("starting a payment", () => {
  it("charges the stored bill's amount whatever amount the client sends, and stores the transaction first", async () => {
    const { bill, token, url } = await startedPayment(45_990);
    expect(url).toBe(`${ctx.mocksUrl}/webpay/webpayserver/initTransaction`);
    const stored = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token } });
    expect(stored).toMatchObject({ billId: bill.id, amount: 45_990, status: "INITIALIZED", clinicKey: "hcs-rcr" });
    expect(stored.buyOrder.length).toBeLessThanOrEqual(26);
    const atProvider = await mockTransaction(ctx.mocksUrl, token);
    expect(atProvider.amount).toBe(45_990);
    expect(atProvider.buyOrder).toBe(stored.buyOrder);
  });

  it("returns to the my-bills page of the clinic portal the patient paid from, never to an address the client invents", async () => {
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const response = await start(bill.id, { rcrLink: "https://evil.example.com/?x=mi.clinicasur.cl" });
    const { token } = response.json().payload as { token: string };
    expect((await mockTransaction(ctx.mocksUrl, token)).returnUrl).toBe("http://clinicamaitenes.localhost:4200/dashboard/my-bills");

    const other = await createBill(ctx.db.prisma, "12345678-5");
    const fromLircay = await start(other.id, { rcrLink: "http://clinicalircay.localhost:4200/dashboard/my-bills" });
    const lircayToken = (fromLircay.json().payload as { token: string }).token;
    expect((await mockTransaction(ctx.mocksUrl, lircayToken)).returnUrl).toBe("http://clinicalircay.localhost:4200/dashboard/my-bills");
  });

  it("refuses a paid bill with 409 and calls no provider", async () => {
    const bill = await createBill(ctx.db.prisma, "12345678-5", { isPaid: true });
    const response = await start(bill.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("La cuenta ya está pagada");
    expect(await ctx.db.prisma.paymentTransaction.count({ where: { billId: bill.id } })).toBe(0);
  });

  it("answers a bill of $ 0 stored before amounts had to be positive with 'nothing to pay', never calling Webpay (issue 42, point 10)", async () => {
    const bill = await createBill(ctx.db.prisma, "12345678-5", { amount: 0 });
    const transactionsAtProvider = (await (await fetch(`${ctx.mocksUrl}/webpay/mock/transactions`)).json()).length;
    const response = await start(bill.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("Esta cuenta no tiene monto por pagar. Si cree que es un error, comuníquese con la clínica.");
    expect(await ctx.db.prisma.paymentTransaction.count({ where: { billId: bill.id } })).toBe(0);
    expect((await (await fetch(`${ctx.mocksUrl}/webpay/mock/transactions`)).json()).length).toBe(transactionsAtProvider);
    expect((await billOf(bill.id)).isPaid).toBe(false);
  });

  it("refuses a second payment while one is in progress for the same bill, even when both are asked at once", async () => {
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const answers = await Promise.all([start(bill.id), start(bill.id), start(bill.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await ctx.db.prisma.paymentTransaction.count({ where: { billId: bill.id } })).toBe(1);
  });

  it("says until when a payment in progress blocks a new try, in Chile's time (issue 33)", async () => {
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    expect((await start(bill.id)).statusCode).toBe(200);
    const refused = await start(bill.id);
    expect(refused.statusCode).toBe(409);
    const stored = await ctx.db.prisma.paymentTransaction.findFirstOrThrow({ where: { billId: bill.id } });
    const until = new Date(stored.createdAt.getTime() + ctx.config.PAYMENT_PENDING_MINUTES * 60_000);
    const time = new Intl.DateTimeFormat("es-CL", {
      timeZone: "America/Santiago",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(until);
    expect(refused.json().message).toBe(
      `Ya hay un pago en curso para esta cuenta. Termínelo en la pestaña de Webpay o, si la cerró, podrá intentarlo de nuevo a partir de las ${time}.`,
    );
  });

  it("answers another patient's bill like a missing one (404) and refuses staff (403)", async () => {
    const othersBill = await createBill(ctx.db.prisma, plainRutOf(17_000_000));
    expect((await start(othersBill.id)).statusCode).toBe(404);
    expect((await start(999_999)).statusCode).toBe(404);
    expect((await start(0)).statusCode).toBe(400);
    const staff = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await start(othersBill.id, {}, staff)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "POST", url: api("/payment/generate-transaction-new-prod"), payload: {} })).statusCode).toBe(
      401,
    );
  });
});

describe("committing on return", () => {
  it("pays the bill when the provider authorizes the stored amount, and answers the detail the modal shows", async () => {
    const { bill, token } = await startedPayment(32_500);
    const back = await payAtForm(ctx.mocksUrl, token, testCards.visaInstallments);
    expect(back).toBe(`http://clinicasur.localhost:4200/dashboard/my-bills?token_ws=${token}`);

    const response = await commit({ token_ws: token, accountCode: bill.accountCode, accountId: String(bill.id) });
    expect(response.statusCode).toBe(200);
    const result = response.json().payload;
    expect(result).toMatchObject({
      approved: true,
      status: "AUTHORIZED",
      amount: 32_500,
      accountId: bill.id,
      merchantName: "Hospital Clínico del Sur",
      description: "Pago de cuentas hospitalarias",
      payment_type: "Crédito",
      installment_type: "3 cuotas sin interés",
      installments_number: 3,
      installments_amount: 10_833,
      card_number: "6623",
    });
    expect(result.authorization_code).toMatch(/^\d{6}$/);
    expect(await billOf(bill.id)).toMatchObject({ isPaid: true });

    const events = await ctx.db.prisma.auditEvent.findMany({ where: { resourceId: result.buyOrder }, orderBy: { id: "asc" } });
    expect(events.map((event) => event.action)).toEqual(["payment.start", "payment.commit"]);
    expect(JSON.stringify(events)).not.toContain("4051885600446623");
  });

  it("commits once when the same token comes back twice: the second answer is the stored result", async () => {
    const { bill, token } = await startedPayment();
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const first = (await commit({ token_ws: token })).json().payload;
    const second = await commit({ token_ws: token });
    expect(second.statusCode).toBe(200);
    expect(second.json().payload).toEqual(first);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
    expect((await billOf(bill.id)).isPaid).toBe(true);
  });

  it("commits once when two tabs commit the same token at the same time", async () => {
    const { bill, token } = await startedPayment();
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const answers = await Promise.all([commit({ token_ws: token }), commit({ token_ws: token }), commit({ token_ws: token })]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const results = answers.map((answer) => answer.json().payload);
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(results[0].approved).toBe(true);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
    expect(await ctx.db.prisma.paymentTransaction.count({ where: { billId: bill.id, paidBill: true } })).toBe(1);
  });

  it("leaves the bill unpaid when the card is rejected (Mastercard test card)", async () => {
    const { bill, token } = await startedPayment();
    await payAtForm(ctx.mocksUrl, token, testCards.mastercardRejected);
    const result = (await commit({ token_ws: token })).json().payload;
    expect(result).toMatchObject({ approved: false, status: "FAILED", failureReason: "rejected", buyOrder: expect.any(String) });
    expect((await billOf(bill.id)).isPaid).toBe(false);
    // A rejected attempt no longer blocks a new one.
    expect((await start(bill.id)).statusCode).toBe(200);
  });

  it("records an aborted payment (TBK_TOKEN) as failed and leaves the bill unpaid", async () => {
    const { bill, token } = await startedPayment();
    const page = await abortAtForm(ctx.mocksUrl, token);
    const buyOrder = /name="TBK_ORDEN_COMPRA" value="([^"]+)"/.exec(page)![1]!;
    const result = (await commit({ token_ws: token, buy_order: buyOrder })).json().payload;
    expect(result).toMatchObject({ approved: false, status: "FAILED", failureReason: "aborted", buyOrder });
    expect((await billOf(bill.id)).isPaid).toBe(false);
  });

  it("records a timed-out form (token '-1' and the buy order) without committing anything", async () => {
    const { bill, token } = await startedPayment();
    const stored = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token } });
    const response = await commit({ token_ws: "-1", buy_order: stored.buyOrder, accountCode: bill.accountCode });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ approved: false, failureReason: "timeout", buyOrder: stored.buyOrder });
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(0);
    expect((await billOf(bill.id)).isPaid).toBe(false);
  });

  it("answers 404 for a buy order or token of another patient, and changes nothing", async () => {
    const otherToken = await ctx.login(otherPatient.rut, otherPatient.password);
    const othersBill = await createBill(ctx.db.prisma, plainRutOf(17_000_000));
    const started = await start(othersBill.id, {}, otherToken);
    const { token } = started.json().payload as { token: string };
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const stored = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token } });

    expect((await commit({ token_ws: "-1", buy_order: stored.buyOrder })).statusCode).toBe(404);
    expect((await commit({ token_ws: token })).statusCode).toBe(404);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(0);
    expect((await billOf(othersBill.id)).isPaid).toBe(false);
  });

  it("validates the return parameters", async () => {
    expect((await commit({})).statusCode).toBe(400);
    expect((await commit({ token_ws: "<script>" })).json().message).toBe("Token de pago inválido");
    expect((await commit({ token_ws: "f".repeat(64) })).statusCode).toBe(404);
  });
});

describe("settling lost commits", () => {
  it("settles a payment whose tab closed before the commit when the patient next opens the bills, committing once", async () => {
    const { bill, token } = await startedPayment();
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    // The return page never loaded. The next visit to the bills settles it with status(token).
    const status = await ctx.app.inject({
      method: "GET",
      url: api(`/payment/account-status/?accountId=${bill.id}`),
      headers: bearer(patientToken),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().payload).toMatchObject({ isPaid: true, paymentInProgress: false, lastPayment: { approved: true } });
    expect((await billOf(bill.id)).isPaid).toBe(true);
    const actions = await ctx.db.prisma.auditEvent.findMany({
      where: { resourceId: status.json().payload.lastPayment.buyOrder, action: { in: ["payment.reconcile", "payment.status"] } },
    });
    expect(actions.map((event) => event.action).sort()).toEqual(["payment.reconcile", "payment.status"]);
    // A late return with the token answers the stored result without a second commit.
    expect((await commit({ token_ws: token })).json().payload.approved).toBe(true);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
  });
});

describe("settling on the bills page visit", () => {
  it("settles the patient's lost commit through tRPC payments.settleMine, which the my-bills page calls on each visit", async () => {
    const { bill, token } = await startedPayment();
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/trpc/payments.settleMine",
      headers: { ...bearer(patientToken), "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.data).toEqual({ settled: 1 });
    expect((await billOf(bill.id)).isPaid).toBe(true);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
  });
});

describe("the provider's form post back to my-bills", () => {
  it("is turned into the same address with the parameters in the query, which the web app reads", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/dashboard/my-bills",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "TBK_TOKEN=abc123&TBK_ORDEN_COMPRA=12-xyz&TBK_ID_SESION=u1-ff&other=<b>",
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/dashboard/my-bills?TBK_TOKEN=abc123&TBK_ORDEN_COMPRA=12-xyz&TBK_ID_SESION=u1-ff");
  });

  it("lets the portal's pages post to the payment form (CSP form-action)", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/health") });
    const formAction = /form-action ([^;]+)/.exec(String(response.headers["content-security-policy"]))?.[1];
    expect(formAction).toBe(`'self' ${new URL(ctx.mocksUrl).origin}`);
  });
});

describe("a bill with an authorised payment (issue 23, finding 5)", () => {
  async function paidThroughWebpay() {
    const { bill, token } = await startedPayment(21_839);
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    expect((await commit({ token_ws: token, accountCode: bill.accountCode, accountId: String(bill.id) })).statusCode).toBe(200);
    return bill;
  }
  const edit = (id: number, payload: object, staff: string) =>
    ctx.app.inject({ method: "PATCH", url: api(`/files/accountId/${id}`), headers: bearer(staff), payload });

  it("refuses with 409 to unpay it, change its amount or its patient, over REST and tRPC, and stays paid", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const bill = await paidThroughWebpay();
    const attempts = [
      await edit(bill.id, { isPaid: false, amount: 5000 }, admin),
      await edit(bill.id, { isPaid: false }, admin),
      await edit(bill.id, { amount: 5000 }, admin),
      await edit(bill.id, { rut: otherPatient.rut }, admin),
      await ctx.app.inject({ method: "POST", url: "/trpc/bills.update", headers: bearer(admin), payload: { id: bill.id, isPaid: false } }),
    ];
    for (const answer of attempts) {
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.body).toContain("La cuenta tiene un pago registrado");
    }
    expect(await billOf(bill.id)).toMatchObject({ isPaid: true, amount: 21_839, userId: bill.userId });
    const again = await start(bill.id);
    expect(again.statusCode).toBe(409);
  });

  it("still takes the edit form as it is sent (same amount, patient and paid state) and a new date", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const bill = await paidThroughWebpay();
    const saved = await edit(bill.id, { rut: "12.345.678-5", amount: 21_839, isPaid: true, createAccountIdDate: "2026-03-01" }, admin);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().payload ?? saved.json()).toMatchObject({ amount: 21_839, isPaid: true });
  });

  it("refuses to change the amount while a payment is in progress at the provider", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const { bill } = await startedPayment(12_000);
    const answer = await edit(bill.id, { amount: 1 }, admin);
    expect(answer.statusCode).toBe(409);
    expect(answer.body).toContain("La cuenta tiene un pago en curso");
    expect(await billOf(bill.id)).toMatchObject({ amount: 12_000 });
  });
});
