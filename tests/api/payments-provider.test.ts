import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMocksApp } from "../../mocks/app.ts";
import { MailStore } from "../../mocks/mail/mail-store.ts";
import { buildApp } from "../../server/app.ts";
import type { AppConfig } from "../../server/config.ts";
import { mockTransaction, payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { createBill } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// The provider down, slow or with expired tokens (a Spanish message, nothing charged or marked), the periodic sweep of
// lost commits, and two portal instances committing the same token.

async function freePortThatIsClosed(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let ctx: TestContext;
let patientToken: string;
const extraApps: FastifyInstance[] = [];

/** A second portal instance on the same database, with other payment settings. */
async function portalWith(config: Partial<AppConfig>): Promise<FastifyInstance> {
  const app = await buildApp({ config: { ...ctx.config, ...config }, db: ctx.db, logger: false });
  extraApps.push(app);
  return app;
}

beforeAll(async () => {
  ctx = await createTestContext();
  patientToken = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await ctx.close();
});

const startPayment = (app: FastifyInstance, accountId: number, token = patientToken) =>
  app.inject({
    method: "POST",
    url: api("/payment/generate-transaction-new-prod"),
    headers: bearer(token),
    payload: { accountId, amount: 10, rcrLink: "http://clinicasur.localhost:4200" },
  });

describe("payment provider down", () => {
  it("answers 502 with a Spanish message, leaves the bill unpaid and records the failed start", async () => {
    const portal = await portalWith({ WEBPAY_BASE_URL: `http://127.0.0.1:${await freePortThatIsClosed()}/webpay` });
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const response = await startPayment(portal, bill.id);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      error: "PROVIDER_UNAVAILABLE",
      message: "El servicio de pago no está disponible en este momento, por favor intente más tarde",
    });
    const after = await ctx.db.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } });
    expect(after).toMatchObject({ isPaid: false });
    const transaction = await ctx.db.prisma.paymentTransaction.findFirstOrThrow({ where: { billId: bill.id } });
    expect(transaction).toMatchObject({ status: "FAILED", failureReason: "create-failed", token: null });
    const audit = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "payment.start", resourceId: transaction.buyOrder } });
    expect(audit.outcome).toBe("failed");
    // The failed start does not block a retry once the provider is back.
    expect((await startPayment(ctx.app, bill.id)).statusCode).toBe(200);
  });
});

describe("payment provider too slow", () => {
  let silent: Server;
  beforeAll(async () => {
    silent = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("answers 504 with a Spanish message after the configured timeout", async () => {
    const { port } = silent.address() as AddressInfo;
    const portal = await portalWith({ WEBPAY_BASE_URL: `http://127.0.0.1:${port}/webpay`, WEBPAY_TIMEOUT_MS: 500 });
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const response = await startPayment(portal, bill.id);
    expect(response.statusCode).toBe(504);
    expect(response.json()).toMatchObject({
      error: "PROVIDER_TIMEOUT",
      message: "El servicio de pago no respondió a tiempo, por favor intente más tarde",
    });
    expect((await ctx.db.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } })).isPaid).toBe(false);
  });
});

describe("expired payment tokens", () => {
  const tokenTtlMs = 300;
  /** The mock's clock runs this far ahead of the real one: moved past a token's life instead of sleeping through it. */
  let mockClockAheadMs = 0;
  let shortLivedMock: FastifyInstance;
  beforeAll(async () => {
    shortLivedMock = buildMocksApp({
      mailStore: new MailStore(),
      webpay: { tokenTtlMs, now: () => new Date(Date.now() + mockClockAheadMs) },
    });
    await shortLivedMock.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => shortLivedMock.close());

  it("records a token used after it expired as timed out and leaves the bill unpaid", async () => {
    const mockUrl = `http://127.0.0.1:${(shortLivedMock.server.address() as AddressInfo).port}`;
    const portal = await portalWith({ WEBPAY_BASE_URL: `${mockUrl}/webpay` });
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const started = (await startPayment(portal, bill.id)).json().payload as { token: string };
    mockClockAheadMs = tokenTtlMs + 100;
    await expect(payAtForm(mockUrl, started.token, testCards.visaApproved)).rejects.toThrow(/410/);
    // Back from the error page with token_ws (and the TBK_ parameters): the provider refuses the commit.
    const response = await portal.inject({
      method: "GET",
      url: api(`/payment/new-commit-prod?token_ws=${started.token}`),
      headers: bearer(patientToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ approved: false, failureReason: "timeout" });
    expect((await ctx.db.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } })).isPaid).toBe(false);
  });
});

describe("the periodic sweep of lost commits", () => {
  it("settles a payment nobody came back to commit, on an interval the server starts and stops on close", async () => {
    const portal = await portalWith({ PAYMENT_SWEEP_SECONDS: 1 });
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const { token } = (await startPayment(portal, bill.id)).json().payload as { token: string };
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    // The sweep leaves the patient two minutes to come back; this one never did.
    await ctx.db.prisma.paymentTransaction.update({ where: { token }, data: { createdAt: new Date(Date.now() - 3 * 60_000) } });

    await expect
      .poll(async () => (await ctx.db.prisma.bill.findUniqueOrThrow({ where: { id: bill.id } })).isPaid, {
        message: "the sweep did not settle the payment",
        timeout: 5_000,
        interval: 100,
      })
      .toBe(true);
    const settled = await ctx.db.prisma.paymentTransaction.findUniqueOrThrow({ where: { token } });
    expect(settled).toMatchObject({ status: "AUTHORIZED", paidBill: true, cardNumber: "6623" });
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "payment.reconcile", resourceId: settled.buyOrder } })).toBe(1);
  });
});

describe("two portal instances", () => {
  it("commit the same token once between them: one provider call, one payment, the same answer", async () => {
    const secondInstance = await portalWith({});
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const { token } = (await startPayment(ctx.app, bill.id)).json().payload as { token: string };
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const commitOn = (app: FastifyInstance) =>
      app.inject({ method: "GET", url: api(`/payment/new-commit-prod?token_ws=${token}`), headers: bearer(patientToken) });
    const answers = await Promise.all([commitOn(ctx.app), commitOn(secondInstance), commitOn(ctx.app), commitOn(secondInstance)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
    expect(await ctx.db.prisma.paymentTransaction.count({ where: { billId: bill.id, paidBill: true } })).toBe(1);
  });
});

describe("a portal instance that died holding a payment's commit", () => {
  it("keeps the returning patient waiting no longer than one provider call's timeout and a margin", async () => {
    // The instance claimed the commit 16 s ago and was killed before it could answer; the provider's timeout is 15 s.
    const bill = await createBill(ctx.db.prisma, "12345678-5");
    const { token } = (await startPayment(ctx.app, bill.id)).json().payload as { token: string };
    await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
    const timeoutMs = ctx.config.WEBPAY_TIMEOUT_MS;
    await ctx.db.prisma.paymentTransaction.update({
      where: { token },
      data: { commitClaimedAt: new Date(Date.now() - timeoutMs - 5_000 - 1_000) },
    });

    const started = Date.now();
    const response = await ctx.app.inject({
      method: "GET",
      url: api(`/payment/new-commit-prod?token_ws=${token}`),
      headers: bearer(patientToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ approved: true });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await mockTransaction(ctx.mocksUrl, token)).calls.commit).toBe(1);
  }, 60_000);
});
