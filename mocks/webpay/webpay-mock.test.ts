import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import transbank from "transbank-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMocksApp } from "../app.ts";
import { MailStore } from "../mail/mail-store.ts";

const { WebpayPlus, Options, IntegrationCommerceCodes, IntegrationApiKeys } = transbank;

// The official SDK, unchanged, against the mock: only the base URL differs from Transbank's integration environment.

let app: FastifyInstance;
let baseUrl: string;
let clock = new Date("2026-03-02T12:00:00Z");

const sdk = (commerceCode: string = IntegrationCommerceCodes.WEBPAY_PLUS, apiKey: string = IntegrationApiKeys.WEBPAY) =>
  new WebpayPlus.Transaction(new Options(commerceCode, apiKey, `${baseUrl}/webpay`));

/** Goes through the payment form as a browser would: card number, then its details; returns where it sends the browser. */
async function payAtForm(token: string, card: Record<string, string>): Promise<Response> {
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  });
  const opened = await fetch(`${baseUrl}/webpay/webpayserver/initTransaction`, form({ token_ws: token }));
  expect(opened.status).toBe(200);
  const details = await fetch(`${baseUrl}/webpay/webpayserver/tarjeta`, form({ token, cardNumber: card.cardNumber! }));
  expect(details.status).toBe(200);
  return fetch(`${baseUrl}/webpay/webpayserver/pagar`, form({ token, ...card }));
}

const visa = { cardNumber: "4051 8856 0044 6623", expiry: "12/30", cvv: "123", installments: "1" };
const mastercard = { cardNumber: "5186 0595 5959 0568", expiry: "12/30", cvv: "123", installments: "1" };

beforeAll(async () => {
  app = buildMocksApp({ mailStore: new MailStore(), webpay: { now: () => clock } });
  await app.listen({ host: "127.0.0.1", port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe("Webpay Plus mock with the official SDK", () => {
  it("creates a transaction: a 64-hex token and the payment form address", async () => {
    const created = await sdk().create("orden-1", "sesion-1", 15000, "http://clinicasur.localhost:4200/dashboard/my-bills");
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);
    expect(created.url).toBe(`${baseUrl}/webpay/webpayserver/initTransaction`);
    const status = await sdk().status(created.token);
    expect(status).toEqual({
      amount: 15000,
      status: "INITIALIZED",
      buy_order: "orden-1",
      session_id: "sesion-1",
      accounting_date: "0302",
      transaction_date: clock.toISOString(),
      installments_number: 0,
    });
  });

  it("commits a payment approved with the VISA test card: AUTHORIZED, response_code 0, last four digits only", async () => {
    const returnUrl = "http://clinicasur.localhost:4200/dashboard/my-bills";
    const { token } = await sdk().create("orden-2", "sesion-2", 20000, returnUrl);
    const back = await payAtForm(token, visa);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`${returnUrl}?token_ws=${token}`);
    const committed = await sdk().commit(token);
    expect(committed).toMatchObject({
      vci: "TSY",
      amount: 20000,
      status: "AUTHORIZED",
      buy_order: "orden-2",
      session_id: "sesion-2",
      card_detail: { card_number: "6623" },
      payment_type_code: "VN",
      response_code: 0,
      installments_number: 0,
    });
    expect(committed.authorization_code).toMatch(/^\d{6}$/);
  });

  it("reports installments chosen with a credit card", async () => {
    const { token } = await sdk().create("orden-cuotas", "s", 30000, "http://localhost/r");
    await payAtForm(token, { ...visa, installments: "3" });
    const committed = await sdk().commit(token);
    expect(committed).toMatchObject({ payment_type_code: "SI", installments_number: 3, installments_amount: 10000 });
  });

  it("commits a payment rejected with the Mastercard test card: HTTP 200, FAILED and a negative response_code", async () => {
    const { token } = await sdk().create("orden-3", "sesion-3", 5000, "http://localhost/r");
    await payAtForm(token, mastercard);
    const committed = await sdk().commit(token);
    expect(committed).toMatchObject({ status: "FAILED", response_code: -1, vci: "TSN", authorization_code: "000000" });
  });

  it("approves Redcompra debit through the bank simulator and reports VD", async () => {
    const { token } = await sdk().create("orden-debito", "s", 7000, "http://localhost/r");
    await payAtForm(token, { cardNumber: "4051884239937763", rut: "11.111.111-1", password: "123" });
    expect(await sdk().commit(token)).toMatchObject({
      status: "AUTHORIZED",
      payment_type_code: "VD",
      card_detail: { card_number: "7763" },
    });
  });

  it("refuses a second commit of the same token with 422", async () => {
    const { token } = await sdk().create("orden-4", "s", 1000, "http://localhost/r");
    await payAtForm(token, visa);
    await sdk().commit(token);
    await expect(sdk().commit(token)).rejects.toThrow(/status code 422\nInvalid status '2' for transaction while authorizing/);
  });

  it("refuses to commit a transaction nobody paid yet", async () => {
    const { token } = await sdk().create("orden-5", "s", 1000, "http://localhost/r");
    await expect(sdk().commit(token)).rejects.toThrow(/Invalid status '0' for transaction while authorizing/);
  });

  it("reverses a full refund and nullifies a partial one", async () => {
    const first = await sdk().create("orden-6", "s", 9000, "http://localhost/r");
    await payAtForm(first.token, visa);
    await sdk().commit(first.token);
    expect(await sdk().refund(first.token, 9000)).toEqual({ type: "REVERSED" });
    expect(await sdk().status(first.token)).toMatchObject({ status: "REVERSED" });

    const second = await sdk().create("orden-7", "s", 9000, "http://localhost/r");
    await payAtForm(second.token, visa);
    await sdk().commit(second.token);
    const partial = await sdk().refund(second.token, 4000);
    expect(partial).toMatchObject({ type: "NULLIFIED", nullified_amount: 4000, balance: 5000, response_code: 0 });
    await expect(sdk().refund(second.token, 6000)).rejects.toThrow(/Invalid value for parameter: amount/);
  });

  it("nullifies a full refund asked more than 3 hours after the sale, with Transbank's fields", async () => {
    const sale = await sdk().create("orden-6b", "s", 9000, "http://localhost/r");
    await payAtForm(sale.token, visa);
    await sdk().commit(sale.token);
    const soldAt = clock;
    clock = new Date(soldAt.getTime() + 3 * 60 * 60 * 1000 + 1);
    try {
      const answer = await sdk().refund(sale.token, 9000);
      expect(answer).toEqual({
        type: "NULLIFIED",
        authorization_code: expect.stringMatching(/^\d{6}$/),
        authorization_date: clock.toISOString(),
        nullified_amount: 9000,
        balance: 0,
        response_code: 0,
      });
      expect(await sdk().status(sale.token)).toMatchObject({ status: "NULLIFIED", balance: 0 });
    } finally {
      clock = soldAt;
    }
  });

  it("refunds debit and prepaid sales only in full (422 with an error_message)", async () => {
    const debit = await sdk().create("orden-6c", "s", 9000, "http://localhost/r");
    await payAtForm(debit.token, { cardNumber: "4051 8842 3993 7763", rut: "11.111.111-1", password: "123" });
    expect(await sdk().commit(debit.token)).toMatchObject({ payment_type_code: "VD" });
    await expect(sdk().refund(debit.token, 4000)).rejects.toThrow(
      /status code 422\nPartial nullification is not allowed for payment type VD/,
    );
    const prepaid = await sdk().create("orden-6d", "s", 9000, "http://localhost/r");
    await payAtForm(prepaid.token, { cardNumber: "4051 8860 0005 6590", expiry: "12/30", cvv: "123" });
    expect(await sdk().commit(prepaid.token)).toMatchObject({ payment_type_code: "VP" });
    await expect(sdk().refund(prepaid.token, 1)).rejects.toThrow(/payment type VP/);
    expect(await sdk().refund(debit.token, 9000)).toEqual({ type: "REVERSED" });
  });

  it("answers 401 Not Authorized to other credentials", async () => {
    const wrong = sdk("597055555532", "0".repeat(64));
    await expect(wrong.create("orden-8", "s", 1000, "http://localhost/r")).rejects.toThrow(/status code 401\nNot Authorized/);
    const response = await fetch(`${baseUrl}/webpay/rswebpaytransaction/api/webpay/v1.2/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ buy_order: "x", session_id: "s", amount: 1, return_url: "http://localhost/r" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error_message: "Not Authorized" });
  });

  it("validates fields with the real messages (422) and an unknown token (404)", async () => {
    await expect(sdk().create("orden-9", "s", 10.5, "http://localhost/r")).rejects.toThrow(/Invalid value for parameter: amount/);
    await expect(sdk().create("orden 9", "s", 10, "http://localhost/r")).rejects.toThrow(/Invalid value for parameter: buy_order/);
    await expect(sdk().status("f".repeat(64))).rejects.toThrow(/status code 404/);
    await expect(sdk().status("nope")).rejects.toThrow(/Invalid value for parameter: token/);
    // The SDK checks lengths before sending.
    await expect(sdk().create("x".repeat(27), "s", 10, "http://localhost/r")).rejects.toThrow(/'buyOrder' is too long/);
  });

  it("expires a token after 5 minutes: the form refuses it and offers the way back with all four parameters", async () => {
    const { token } = await sdk().create("orden-10", "sesion-10", 1000, "http://localhost/r");
    clock = new Date(clock.getTime() + 5 * 60 * 1000 + 1000);
    const page = await fetch(`${baseUrl}/webpay/webpayserver/initTransaction?token_ws=${token}`);
    expect(page.status).toBe(410);
    const body = await page.text();
    expect(body).toContain("expiró");
    for (const name of ["token_ws", "TBK_TOKEN", "TBK_ORDEN_COMPRA", "TBK_ID_SESION"]) expect(body).toContain(`name="${name}"`);
    await expect(sdk().commit(token)).rejects.toThrow(/Transaction has an invalid finished state: aborted/);
  });

  it("returns an aborted payment with TBK_TOKEN, TBK_ORDEN_COMPRA and TBK_ID_SESION as a form post", async () => {
    const { token } = await sdk().create("orden-11", "sesion-11", 1000, "http://localhost/r");
    const response = await fetch(`${baseUrl}/webpay/webpayserver/anular`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${token}`,
    });
    const body = await response.text();
    expect(body).toContain('action="http://localhost/r"');
    expect(body).toContain(`name="TBK_TOKEN" value="${token}"`);
    expect(body).toContain('name="TBK_ORDEN_COMPRA" value="orden-11"');
    expect(body).toContain('name="TBK_ID_SESION" value="sesion-11"');
    expect(body).not.toContain('name="token_ws"');
    await expect(sdk().commit(token)).rejects.toThrow(/Invalid status '3'/);
  });

  it("returns a timed-out form with only TBK_ORDEN_COMPRA and TBK_ID_SESION", async () => {
    const { token } = await sdk().create("orden-12", "sesion-12", 1000, "http://localhost/r");
    clock = new Date(clock.getTime() + 6 * 60 * 1000);
    const body = await (await fetch(`${baseUrl}/webpay/webpayserver/timeout?token=${token}`)).text();
    expect(body).toContain('name="TBK_ORDEN_COMPRA" value="orden-12"');
    expect(body).toContain('name="TBK_ID_SESION" value="sesion-12"');
    expect(body).not.toContain("TBK_TOKEN");
  });

  it("lists its transactions for testers", async () => {
    const page = await (await fetch(`${baseUrl}/webpay`)).text();
    expect(page).toContain("orden-2");
    const list = (await (await fetch(`${baseUrl}/webpay/mock/transactions`)).json()) as Array<{
      buyOrder: string;
      calls: { commit: number };
    }>;
    expect(list.find((item) => item.buyOrder === "orden-4")?.calls.commit).toBe(2);
  });
});
