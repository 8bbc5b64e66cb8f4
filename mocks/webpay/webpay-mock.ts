import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { htmlContentType } from "../html.ts";
import { bankSimulatorLogin, findTestCard, installmentOptions } from "./webpay-cards.ts";
import {
  renderCardDetailsPage,
  renderCardNumberPage,
  renderErrorPage,
  renderReturnPostPage,
  renderTransactionsPage,
} from "./webpay-pages.ts";
import { WebpayStore, type MockTransaction } from "./webpay-store.ts";

// Transbank Webpay Plus, REST API v1.2 and its payment form, faithful enough for the official `transbank-sdk`
// (mounted under /webpay: the SDK's base URL is http://<mocks>/webpay). Contract: ../../../shared/notes/webpay-plus.md.

/** Transbank's public integration credentials for Webpay Plus (IntegrationCommerceCodes / IntegrationApiKeys). */
export const integrationCredentials = {
  commerceCode: "597055555532",
  apiKey: "579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C",
};

export const API_BASE = "/rswebpaytransaction/api/webpay/v1.2";
export const DEFAULT_TOKEN_TTL_MS = 5 * 60 * 1000;

export interface WebpayMockOptions {
  /** How long a token may be used at the form after create (5 minutes, like Transbank's). */
  tokenTtlMs?: number;
  /** Accepted commerce code / API key pairs; by default only the integration ones. */
  credentials?: Array<{ commerceCode: string; apiKey: string }>;
  now?: () => Date;
  /** Address the browser reaches the mock at, when it differs from the API caller's (Docker: http://localhost:4300). */
  publicUrl?: string;
}

class WebpayApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const buyOrderPattern = /^[A-Za-z0-9|_=&%.,~:/?[+!@()>-]+$/;
const tokenPattern = /^[0-9a-f]{64}$/;

/** A body field: required, then checked; failures answer 422 with the real service's wording. */
function field<T>(body: Record<string, unknown>, name: string, check: (value: unknown) => value is T): T {
  const value = body[name];
  if (value === undefined || value === null || value === "") throw new WebpayApiError(422, `${name} is required!`);
  if (!check(value)) throw new WebpayApiError(422, `Invalid value for parameter: ${name}`);
  return value;
}

const isText =
  (max: number, pattern?: RegExp) =>
  (value: unknown): value is string =>
    typeof value === "string" && value.length <= max && (!pattern || pattern.test(value));
const isAmount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value > 0 && String(value).length <= 17;
const isReturnUrl = (value: unknown): value is string => {
  if (typeof value !== "string" || value.length > 255) return false;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

function jsonBody(request: FastifyRequest, allowed: string[]): Record<string, unknown> {
  const body = request.body ?? {};
  if (typeof body !== "object" || Array.isArray(body)) throw new WebpayApiError(400, "Invalid request body");
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown) throw new WebpayApiError(400, `Unrecognized field '${unknown}'`);
  return body as Record<string, unknown>;
}

const formText = z.string().trim().max(200).catch("");
const formSchema = z.object({
  token: formText,
  token_ws: formText,
  cardNumber: formText,
  expiry: formText,
  cvv: formText,
  installments: formText,
  rut: formText,
  password: z.string().max(200).catch(""),
});
type PaymentForm = z.infer<typeof formSchema>;

function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}

/** Debit and prepaid sales are refunded only in full. */
const onlyFullRefund = (transaction: MockTransaction) => transaction.paymentTypeCode === "VD" || transaction.paymentTypeCode === "VP";

function isFutureExpiry(expiry: string, now: Date): boolean {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

export const webpayMock: FastifyPluginAsync<WebpayMockOptions> = async (app, options) => {
  const now = options.now ?? (() => new Date());
  const store = new WebpayStore(options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS, now);
  const credentials = options.credentials ?? [integrationCredentials];
  // Fault runs (issue 24): a commit is recorded at once and its answer held this long, so that a run can kill the portal
  // after Webpay committed and before the portal stored it. Set with PUT /mock/fault?commitDelayMs=N (0 = off).
  // Likewise refundDelayMs holds a refund's answer (PUT /mock/fault?refundDelayMs=N), and refundOutage makes every
  // refund answer 500 (PUT /mock/fault?refundOutage=1): a provider that hangs or fails while staff refund a payment.
  const fault = { commitDelayMs: 0, commitsHeld: 0, refundDelayMs: 0, refundsHeld: 0, refundOutage: false };

  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Every error of the REST API is {"error_message": "..."}; the form pages answer HTML.
  app.setErrorHandler((error, request, reply) => {
    const isApi = request.url.includes(API_BASE);
    const status = error instanceof WebpayApiError ? error.statusCode : ((error as { statusCode?: number }).statusCode ?? 500);
    const message = error instanceof WebpayApiError ? error.message : status === 400 ? "Invalid request body" : "Internal error";
    if (isApi) return reply.status(status).send({ error_message: message });
    return reply.status(status).type(htmlContentType).send(renderErrorPage("Ocurrió un error al procesar la solicitud."));
  });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
  });

  // ---- REST API v1.2 ----
  await app.register(
    async (api) => {
      api.addHook("onRequest", async (request) => {
        const commerceCode = request.headers["tbk-api-key-id"];
        const apiKey = request.headers["tbk-api-key-secret"];
        const known = credentials.some((pair) => pair.commerceCode === commerceCode && pair.apiKey === apiKey);
        if (!known) throw new WebpayApiError(401, "Not Authorized");
      });

      const transactionOf = (request: FastifyRequest<{ Params: { token: string } }>): MockTransaction => {
        const { token } = request.params;
        if (!tokenPattern.test(token)) throw new WebpayApiError(422, "Invalid value for parameter: token");
        const transaction = store.find(token);
        if (!transaction || transaction.commerceCode !== request.headers["tbk-api-key-id"]) {
          throw new WebpayApiError(404, "Transaction not found");
        }
        return transaction;
      };

      api.post("/transactions", async (request) => {
        const body = jsonBody(request, ["buy_order", "session_id", "amount", "return_url"]);
        const buyOrder = field(body, "buy_order", isText(26, buyOrderPattern));
        const sessionId = field(body, "session_id", isText(61));
        const amount = field(body, "amount", isAmount);
        const returnUrl = field(body, "return_url", isReturnUrl);
        const commerceCode = String(request.headers["tbk-api-key-id"]);
        const transaction = store.create({ commerceCode, buyOrder, sessionId, amount, returnUrl });
        const publicBase = options.publicUrl?.replace(/\/+$/, "") ?? `${request.protocol}://${request.host}`;
        return { token: transaction.token, url: `${publicBase}/webpay/webpayserver/initTransaction` };
      });

      api.put("/transactions/:token", async (request: FastifyRequest<{ Params: { token: string } }>) => {
        jsonBody(request, []);
        const transaction = transactionOf(request);
        transaction.calls.commit += 1;
        if (transaction.outcome === "timeout") throw new WebpayApiError(422, "Transaction has an invalid finished state: aborted");
        if (transaction.committed || transaction.outcome === "pending" || transaction.outcome === "aborted") {
          throw new WebpayApiError(
            422,
            `Invalid status '${store.statusNumber(transaction)}' for transaction while authorizing. Commerce will be notified by webpay to authorize`,
          );
        }
        transaction.committed = true;
        if (fault.commitDelayMs > 0) {
          fault.commitsHeld += 1;
          await new Promise((resolve) => setTimeout(resolve, fault.commitDelayMs));
        }
        return store.view(transaction);
      });

      api.get("/transactions/:token", async (request: FastifyRequest<{ Params: { token: string } }>) => {
        const transaction = transactionOf(request);
        transaction.calls.status += 1;
        if (store.isTooOldForStatus(transaction)) {
          throw new WebpayApiError(422, "The transactions date has passed max time (7 days) to recover the status");
        }
        return store.view(transaction);
      });

      api.post("/transactions/:token/refunds", async (request: FastifyRequest<{ Params: { token: string } }>) => {
        const body = jsonBody(request, ["amount"]);
        const transaction = transactionOf(request);
        transaction.calls.refund += 1;
        if (fault.refundOutage) throw new WebpayApiError(500, "Internal error");
        const amount = field(body, "amount", isAmount);
        const refundable = transaction.committed && (transaction.status === "AUTHORIZED" || transaction.status === "PARTIALLY_NULLIFIED");
        if (!refundable) {
          throw new WebpayApiError(422, `Invalid status '${store.statusNumber(transaction)}' for transaction while refunding`);
        }
        if (amount > transaction.balance) throw new WebpayApiError(422, "Invalid value for parameter: amount");
        // Debit (VD) and prepaid (VP) sales can only be refunded in full (Transbank: no partial nullification for them).
        if (onlyFullRefund(transaction) && amount !== transaction.balance) {
          throw new WebpayApiError(422, `Partial nullification is not allowed for payment type ${transaction.paymentTypeCode}`);
        }
        const answer = store.refund(transaction, amount);
        if (fault.refundDelayMs > 0) {
          // Refunded at once, answered late: the caller may give up before it hears that the refund happened.
          fault.refundsHeld += 1;
          await new Promise((resolve) => setTimeout(resolve, fault.refundDelayMs));
        }
        return answer;
      });
    },
    { prefix: API_BASE },
  );

  // ---- Payment form ----
  const secondsLeft = (transaction: MockTransaction) => (store.ttlMs - (now().getTime() - transaction.createdAt.getTime())) / 1000;

  const sendHtml = (reply: FastifyReply, body: string, status = 200) => reply.status(status).type(htmlContentType).send(body);

  const abortFields = (transaction: MockTransaction) => ({
    TBK_TOKEN: transaction.token,
    TBK_ORDEN_COMPRA: transaction.buyOrder,
    TBK_ID_SESION: transaction.sessionId,
  });

  /** The transaction the form is working on, or an answer explaining why it cannot go on. */
  function formTransaction(reply: FastifyReply, token: string): MockTransaction | null {
    const transaction = tokenPattern.test(token) ? store.find(token) : undefined;
    if (!transaction) {
      void sendHtml(reply, renderErrorPage("La transacción no existe o el token no es válido."), 404);
      return null;
    }
    if (transaction.outcome !== "pending") {
      void sendHtml(reply, renderErrorPage("Esta transacción ya fue procesada."), 409);
      return null;
    }
    if (store.isExpired(transaction)) {
      // Error page, then back to the commerce: all four parameters arrive.
      store.timeOut(transaction);
      void sendHtml(
        reply,
        renderErrorPage("El tiempo para pagar esta transacción expiró.", {
          returnUrl: transaction.returnUrl,
          fields: { token_ws: transaction.token, ...abortFields(transaction) },
        }),
        410,
      );
      return null;
    }
    return transaction;
  }

  const parseForm = (request: FastifyRequest): PaymentForm =>
    formSchema.parse({ ...(request.query as object), ...(request.body as object) });

  const initTransaction = async (request: FastifyRequest, reply: FastifyReply) => {
    const form = parseForm(request);
    const transaction = formTransaction(reply, form.token_ws || form.token);
    if (!transaction) return reply;
    return sendHtml(reply, renderCardNumberPage(transaction, secondsLeft(transaction)));
  };
  app.get("/webpayserver/initTransaction", initTransaction);
  app.post("/webpayserver/initTransaction", initTransaction);

  app.post("/webpayserver/tarjeta", async (request, reply) => {
    const form = parseForm(request);
    const transaction = formTransaction(reply, form.token);
    if (!transaction) return reply;
    const card = findTestCard(form.cardNumber);
    if (!card) {
      return sendHtml(
        reply,
        renderCardNumberPage(transaction, secondsLeft(transaction), ["Tarjeta no válida: use una tarjeta de prueba de integración."]),
        400,
      );
    }
    return sendHtml(reply, renderCardDetailsPage(transaction, card, secondsLeft(transaction)));
  });

  app.post("/webpayserver/pagar", async (request, reply) => {
    const form = parseForm(request);
    const transaction = formTransaction(reply, form.token);
    if (!transaction) return reply;
    const card = findTestCard(form.cardNumber);
    if (!card) return sendHtml(reply, renderCardNumberPage(transaction, secondsLeft(transaction), ["Tarjeta no válida."]), 400);
    const errors: string[] = [];
    if (card.kind === "debit") {
      const rut = form.rut.replace(/\./g, "").toUpperCase();
      if (rut !== bankSimulatorLogin.rut || form.password !== bankSimulatorLogin.password) errors.push("RUT o clave incorrectos.");
    } else {
      if (!isFutureExpiry(form.expiry, now())) errors.push("Fecha de expiración inválida (MM/AA).");
      if (!/^\d{3,4}$/.test(form.cvv)) errors.push("CVV inválido.");
    }
    const installments = card.kind === "credit" ? Number(form.installments || "1") : 1;
    if (!installmentOptions.some((option) => option.count === installments)) errors.push("Número de cuotas inválido.");
    if (errors.length) return sendHtml(reply, renderCardDetailsPage(transaction, card, secondsLeft(transaction), errors), 400);

    store.pay(transaction, { card, cvv: form.cvv, installments });
    // Paid or rejected: back to the commerce with token_ws, which it must commit.
    return reply.redirect(withQuery(transaction.returnUrl, { token_ws: transaction.token }), 303);
  });

  app.post("/webpayserver/anular", async (request, reply) => {
    const form = parseForm(request);
    const transaction = formTransaction(reply, form.token);
    if (!transaction) return reply;
    store.abort(transaction);
    return sendHtml(reply, renderReturnPostPage(transaction.returnUrl, abortFields(transaction), "Pago anulado. Volviendo al comercio…"));
  });

  app.get("/webpayserver/timeout", async (request, reply) => {
    const form = parseForm(request);
    const transaction = tokenPattern.test(form.token) ? store.find(form.token) : undefined;
    if (!transaction || transaction.outcome !== "pending") {
      return sendHtml(reply, renderErrorPage("Esta transacción ya fue procesada."), 409);
    }
    if (!store.isExpired(transaction)) {
      return reply.redirect(`initTransaction?token_ws=${transaction.token}`, 303);
    }
    store.timeOut(transaction);
    return sendHtml(
      reply,
      renderReturnPostPage(
        transaction.returnUrl,
        { TBK_ORDEN_COMPRA: transaction.buyOrder, TBK_ID_SESION: transaction.sessionId },
        "Se agotó el tiempo para pagar. Volviendo al comercio…",
      ),
    );
  });

  // ---- For testers ----
  app.get("/mock/fault", async () => fault);
  app.put<{ Querystring: { commitDelayMs?: string; refundDelayMs?: string; refundOutage?: string } }>("/mock/fault", async (request) => {
    const delay = (value: string | undefined) => Math.max(0, Number(value ?? 0) || 0);
    fault.commitDelayMs = delay(request.query.commitDelayMs);
    fault.refundDelayMs = delay(request.query.refundDelayMs);
    fault.refundOutage = request.query.refundOutage === "1";
    return fault;
  });
  app.get("/", async (_request, reply) => sendHtml(reply, renderTransactionsPage(store.list())));
  app.get("/mock/transactions", async () =>
    store.list().map((transaction) => ({
      token: transaction.token,
      buyOrder: transaction.buyOrder,
      sessionId: transaction.sessionId,
      amount: transaction.amount,
      returnUrl: transaction.returnUrl,
      status: transaction.status,
      outcome: transaction.outcome,
      committed: transaction.committed,
      calls: transaction.calls,
      paymentTypeCode: transaction.paymentTypeCode ?? null,
      balance: transaction.balance,
      refunds: transaction.refunds.map((refund) => ({ ...refund, at: refund.at.toISOString() })),
      createdAt: transaction.createdAt.toISOString(),
    })),
  );
};
