import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { accountPaymentStatus, commitPayment, startPayment } from "./payments.service.ts";
import { ZAccountStatusInput, ZCommitPaymentInput, ZStartPaymentInput } from "../../contract/payments.schemas.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZAccountPaymentStatus, ZPaymentResult, ZStartedPayment } from "../../contract/payments.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";

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
    errors: [404, 409, 502, 504],
  },
  status: {
    tag,
    summary: "Estado de pago de una cuenta",
    querystring: ZAccountStatusInput,
    response: payloadOf(ZAccountPaymentStatus),
    errors: [404],
  },
} satisfies Record<string, RouteDocs>;

/** REST of SPEC §7 Payment (and the bill payment status of §7 Bills), under /api/rcr/v1. */
export async function paymentsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const patientCall = async (request: FastifyRequest) => ({
    user: await requireUser(deps, request.headers.authorization),
    meta: requestMeta(request),
  });

  app.post(
    "/payment/generate-transaction-new-prod",
    { config: { access: "patient", docs: docs.start, caregiverPart: "cuentas-pagos" } },
    async (request) => {
      const { user, meta } = await patientCall(request);
      return { payload: await startPayment(deps, user, request.body, { ...meta, host: request.host }) };
    },
  );

  app.get("/payment/new-commit-prod", { config: { access: "patient", docs: docs.commit } }, async (request) => {
    const { user, meta } = await patientCall(request);
    return { payload: await commitPayment(deps, user, request.query, meta) };
  });

  app.get(
    "/payment/account-status/",
    { config: { access: "patient", docs: docs.status, caregiverPart: "cuentas-pagos" } },
    async (request) => {
      const { user, meta } = await patientCall(request);
      return { payload: await accountPaymentStatus(deps, user, request.query, meta) };
    },
  );
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
