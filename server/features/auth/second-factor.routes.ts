import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { payloadOf, ZSession } from "../../contract/api.dto.ts";
import { ZOtpInput, ZSessionIdInput } from "../../contract/second-factor.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { setDeviceCookie } from "../../http/device-cookie.ts";
import { access } from "../../http/route-access.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { confirmEnrolment, secondFactorStatus, startEnrolment, verifySecondFactor } from "./second-factor.service.ts";
import { endOtherOwnSessions, endOwnSession, listSessions } from "./sessions.service.ts";

const tag = "Autenticación";
const ZStatus = z.object({
  enabled: z.boolean(),
  required: z.boolean().describe("El personal debe tenerla; los pacientes pueden"),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
const ZEnrolment = z.object({
  secret: z.string().describe("Secreto base32, para escribirlo a mano en la aplicación"),
  otpauthUri: z.string(),
  qrSvg: z.string().describe("Código QR de otpauthUri (SVG)"),
});
const ZActiveSession = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});

const docs = {
  verifyOtp: {
    tag,
    summary: "Segundo paso del ingreso: código de verificación",
    description:
      "El token Bearer es el que entregó admin-login (o new-login) a una cuenta con verificación en dos pasos, que solo sirve aquí. " +
      "Acepta un código de 6 dígitos de la aplicación (±30 s, cada código una vez) o un código de recuperación; responde como admin-login, con el token ya válido para todo el portal.",
    body: ZOtpInput,
    response: payloadOf(ZSession),
    errors: [409, 429],
  },
  status: { tag, summary: "Estado de la verificación en dos pasos de la cuenta", response: payloadOf(ZStatus) },
  setup: {
    tag,
    summary: "Inicia la configuración de la verificación en dos pasos",
    description: "Genera un secreto nuevo (queda inactivo hasta confirmarlo con un código) y lo entrega como texto y como código QR.",
    response: payloadOf(ZEnrolment),
    errors: [409],
  },
  confirm: {
    tag,
    summary: "Activa la verificación en dos pasos con un primer código",
    description: "Responde los 10 códigos de recuperación, de un solo uso; se muestran solo esta vez.",
    body: ZOtpInput,
    response: payloadOf(z.object({ recoveryCodes: z.array(z.string()) })),
    errors: [409, 429],
  },
  sessions: { tag, summary: "Sesiones activas de la cuenta", response: payloadOf(z.array(ZActiveSession)) },
  endSession: {
    tag,
    summary: "Cierra una sesión de la cuenta",
    body: ZSessionIdInput,
    response: payloadOf(z.literal(true)),
    errors: [404],
  },
  endOthers: { tag, summary: "Cierra las demás sesiones de la cuenta", response: payloadOf(z.literal(true)) },
} satisfies Record<string, RouteDocs>;

/** REST of the second factor and the sessions list (issue 27); tRPC auth.* calls the same services. */
export async function secondFactorRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.post("/auth/verify-otp", access("user", docs.verifyOtp, { firstLogin: true, secondFactor: true }), async (request, reply) => {
    const user = await requireUser(deps, request.headers.authorization, { duringFirstLogin: true, duringSecondFactor: true });
    const { session, deviceCookie } = await verifySecondFactor(deps, user, request.body, requestMeta(request));
    setDeviceCookie(reply, deviceCookie);
    return { payload: session };
  });
  app.get("/auth/second-factor", access("user", docs.status), async (request) => ({
    payload: await secondFactorStatus(deps, await requireUser(deps, request.headers.authorization)),
  }));
  app.post("/auth/second-factor/setup", access("user", docs.setup), async (request) => ({
    payload: await startEnrolment(deps, await requireUser(deps, request.headers.authorization)),
  }));
  app.post("/auth/second-factor/confirm", access("user", docs.confirm), async (request) => ({
    payload: await confirmEnrolment(deps, await requireUser(deps, request.headers.authorization), request.body, requestMeta(request)),
  }));
  app.get("/auth/sessions", access("user", docs.sessions), async (request) => ({
    payload: await listSessions(deps, await requireUser(deps, request.headers.authorization)),
  }));
  app.post("/auth/sessions/end", access("user", docs.endSession), async (request) => ({
    payload: await endOwnSession(deps, await requireUser(deps, request.headers.authorization), request.body, requestMeta(request)),
  }));
  app.post("/auth/sessions/end-others", access("user", docs.endOthers), async (request) => ({
    payload: await endOtherOwnSessions(deps, await requireUser(deps, request.headers.authorization), requestMeta(request)),
  }));
}
