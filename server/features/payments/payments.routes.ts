import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { accountPaymentStatus, commitPayment, startPayment } from "./payments.service.ts";
import { paymentHistory } from "./payment-history.ts";
import { downloadReceipt, receiptLink } from "./payment-receipt.service.ts";
import { billPayment, refundPayment } from "./payment-refund.service.ts";
import {
  ZAccountStatusInput,
  ZBillPaymentInput,
  ZCommitPaymentInput,
  ZPaymentHistoryInput,
  ZRefundPaymentInput,
  ZStartPaymentInput,
} from "../../contract/payments.schemas.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import {
  ZAccountPaymentStatus,
  ZBillPayment,
  ZPaymentHistory,
  ZPaymentResult,
  ZReceiptLink,
  ZRefundView,
  ZStartedPayment,
} from "../../contract/payments.dto.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";
import { ZSignedLinkQuery } from "../../lib/signed-links.ts";
import { z } from "zod";

const tag = "Pagos";
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  start: {
    tag,
    summary: "Inicia el pago con tarjeta de una cuenta (Webpay)",
    description: "El monto cobrado es siempre el de la cuenta guardada; el navegador envía token_ws a la url respondida.",
    body: ZStartPaymentInput,
    response: payloadOf(ZStartedPayment),
    errors: [404, 409, 502, 504],
  },
  commit: {
    tag,
    summary: "Confirma el pago al volver de Webpay y responde su detalle",
    querystring: ZCommitPaymentInput,
    response: payloadOf(ZPaymentResult),
    errors: [404, 409, 429, 502, 504],
  },
  status: {
    tag,
    summary: "Estado de pago de una cuenta",
    querystring: ZAccountStatusInput,
    response: payloadOf(ZAccountPaymentStatus),
    errors: [404],
  },
  history: {
    tag,
    summary: "Historial de pagos del paciente (cada intento con su resultado, el más reciente primero)",
    querystring: ZPaymentHistoryInput,
    response: payloadOf(ZPaymentHistory),
  },
  receiptLink: {
    tag,
    summary: "Enlace firmado de corta duración al comprobante (PDF) de una cuenta pagada con tarjeta",
    params: ZBillPaymentInput,
    response: payloadOf(ZReceiptLink),
    errors: [404],
  },
  receiptDownload: {
    tag,
    summary: "Descarga el comprobante de pago por su enlace firmado",
    params: z.object({ buyOrder: z.string().max(26) }),
    querystring: ZSignedLinkQuery,
    response: fileResponse("application/pdf", "El comprobante de pago"),
  },
  billPayment: {
    tag,
    summary: "Pago con tarjeta de una cuenta y su anulación, para el personal",
    params: ZBillPaymentInput,
    response: payloadOf(ZBillPayment),
    errors: [404],
  },
  refund: {
    tag,
    summary: "Anula el pago con tarjeta de una cuenta (reversa o anulación en Webpay Plus), con un motivo",
    description: "La cuenta vuelve a 'Pendiente' solo cuando Webpay confirma. Repetir la llamada responde la anulación ya hecha.",
    body: ZRefundPaymentInput,
    response: payloadOf(ZRefundView),
    errors: [404, 409, 502, 504],
  },
} satisfies Record<string, RouteDocs>;

/** REST of SPEC §7 Payment (and the bill payment status of §7 Bills), under /api/rcr/v1. */
export async function paymentsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const userCall = async (request: FastifyRequest) => ({
    user: await requireUser(deps, request.headers.authorization),
    meta: requestMeta(request),
  });

  app.post(
    "/payment/generate-transaction-new-prod",
    { config: { access: "patient", docs: docs.start, caregiverPart: "cuentas-pagos" } },
    async (request) => {
      const { user, meta } = await userCall(request);
      return { payload: await startPayment(deps, user, request.body, { ...meta, host: request.host }) };
    },
  );

  app.get("/payment/new-commit-prod", { config: { access: "patient", docs: docs.commit } }, async (request) => {
    const { user, meta } = await userCall(request);
    return { payload: await commitPayment(deps, user, request.query, meta) };
  });

  app.get(
    "/payment/account-status/",
    { config: { access: "patient", docs: docs.status, caregiverPart: "cuentas-pagos" } },
    async (request) => {
      const { user, meta } = await userCall(request);
      return { payload: await accountPaymentStatus(deps, user, request.query, meta) };
    },
  );

  app.get("/payment/history", { config: { access: "patient", docs: docs.history, caregiverPart: "cuentas-pagos" } }, async (request) => {
    const { user, meta } = await userCall(request);
    return { payload: await paymentHistory(deps, user, request.query, meta) };
  });

  app.get(
    "/payment/receipt/:accountId",
    { config: { access: "user", docs: docs.receiptLink, caregiverPart: "cuentas-pagos" } },
    async (request) => {
      const { user, meta } = await userCall(request);
      return { payload: await receiptLink(deps, user, request.params, meta) };
    },
  );

  // The signed link is the credential (it names the user it was made for); no bearer header is needed to follow it.
  app.get(
    "/payment/receipt/download/:buyOrder",
    { config: { access: "signed", docs: docs.receiptDownload } },
    async (request: FastifyRequest<{ Params: { buyOrder: string } }>, reply) => {
      const receipt = await downloadReceipt(deps, request.params.buyOrder, request.query, requestMeta(request));
      return reply
        .header("Content-Type", "application/pdf")
        .header("Content-Disposition", `attachment; filename="${receipt.fileName}"`)
        .header("X-Content-Type-Options", "nosniff")
        .header("Cache-Control", "no-store")
        .send(Buffer.from(receipt.content));
    },
  );

  app.get("/payment/bill/:accountId", { config: { access: "staff", docs: docs.billPayment } }, async (request) => {
    const { user, meta } = await userCall(request);
    return { payload: await billPayment(deps, user, request.params, meta) };
  });

  app.post("/payment/refund", { config: { access: "staff", docs: docs.refund } }, async (request) => {
    const { user, meta } = await userCall(request);
    return { payload: await refundPayment(deps, user, request.body, meta) };
  });
}

const returnParams = ["token_ws", "TBK_TOKEN", "TBK_ORDEN_COMPRA", "TBK_ID_SESION"] as const;

/**
 * The payment provider may come back to /dashboard/my-bills with a form POST (aborts, timeouts). The page is the web
 * app, served by GET: answer 303 to the same address with the provider's parameters in the query, where the page reads
 * them. Only those four parameters, each a short token-like value, are carried over.
 */
export async function paymentReturnRoute(app: FastifyInstance) {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post("/dashboard/my-bills", { config: { access: "public" } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const query = new URLSearchParams();
    for (const name of returnParams) {
      const value = body[name];
      if (typeof value === "string" && /^[A-Za-z0-9|_=&%.,~:/?[+!@()>-]{1,64}$/.test(value)) query.set(name, value);
    }
    const search = query.toString();
    return reply.redirect(`/dashboard/my-bills${search ? `?${search}` : ""}`, 303);
  });
}
