import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import { clinicByKey, resolveClinic } from "../../contract/clinics.ts";
import { ZUserDto } from "../../contract/users.dto.ts";
import type { AppDeps } from "../../deps.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { AppError } from "../../lib/errors.ts";
import { createClaveUnicaClient, type ClaveUnicaClient } from "./claveunica.client.ts";
import { claveUnicaSettings } from "./claveunica.config.ts";
import { FLOW_COOKIE, HANDOFF_COOKIE, openCookie, sealCookie, type ClaveUnicaFlow } from "./claveunica-flow.ts";
import {
  CALLBACK_PATH,
  claveUnicaLogoutUrl,
  ClaveUnicaRefusal,
  finishClaveUnica,
  startClaveUnica,
  type ClaveUnicaSignIn,
} from "./claveunica.service.ts";

// Sign-in with ClaveÚnica (issue 43). Two browser addresses outside the REST contract — /claveunica/ingresar (sends the
// browser to the provider) and /claveunica/retorno (the redirect URI) — and two REST calls: whether ClaveÚnica is
// offered (with its logout address) and the hand-over of the session the callback started.

/** The REST address of the hand-over (API_PREFIX of server/app.ts + the route), the only path its cookie is sent to. */
const HANDOFF_PATH = "/api/rcr/v1/auth/claveunica/session";
const HANDOFF_SECONDS = 120;

const ZSuggested = z.object({
  firstName: z.string().optional(),
  secondName: z.string().optional(),
  lastName: z.string().optional(),
  secondLastName: z.string().optional(),
  email: z.string().optional(),
});
const ZClaveUnicaSession = z.object({
  user: ZUserDto,
  accessToken: z.string().describe("JWT de acceso (Authorization: Bearer)"),
  secondFactor: z
    .literal("verify")
    .optional()
    .describe("'verify' si el paciente tiene segundo factor: el token solo sirve para POST /auth/verify-otp hasta dar el código"),
  suggested: ZSuggested.describe("Datos de ClaveÚnica para los campos vacíos del perfil, para que el paciente los confirme"),
  next: z.string().describe("Página del portal a la que iba el paciente"),
});
const ZClaveUnicaOptions = z.object({
  enabled: z.boolean().describe("Si el portal ofrece 'Ingresar con ClaveÚnica'"),
  logoutUrl: z.string().nullable().describe("Dirección para cerrar también la sesión de ClaveÚnica, si el proveedor la tiene"),
});

const tag = "Autenticación";
const docs = {
  options: {
    tag,
    summary: "Indica si se ofrece el ingreso con ClaveÚnica",
    response: payloadOf(ZClaveUnicaOptions),
  },
  session: {
    tag,
    summary: "Entrega la sesión iniciada con ClaveÚnica",
    description:
      "Lee la cookie que dejó /claveunica/retorno en este navegador (sirve una vez y por dos minutos) y entrega el token de acceso.",
    response: payloadOf(ZClaveUnicaSession),
  },
} satisfies Record<string, RouteDocs>;

export const noHandoffMessage = "No encontramos un ingreso con ClaveÚnica pendiente en este navegador. Vuelva a intentarlo.";

const cookieOptions = (request: FastifyRequest, path: string, maxAge: number) => ({
  path,
  httpOnly: true,
  sameSite: "lax" as const,
  secure: request.protocol === "https",
  maxAge,
});

function clientFor(deps: AppDeps): ClaveUnicaClient | null {
  const settings = claveUnicaSettings(deps.config);
  return settings ? createClaveUnicaClient(settings, deps.config) : null;
}

/** REST: GET /auth/claveunica/options and POST /auth/claveunica/session (under API_PREFIX). */
export async function claveUnicaApiRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const client = clientFor(deps);
  app.get<{ Querystring: { clinic?: string } }>("/auth/claveunica/options", access("public", docs.options), async (request) => {
    const clinicKey = clinicByKey(request.query.clinic)?.key ?? resolveClinic(`http://${request.headers.host ?? ""}`).key;
    return { payload: { enabled: client !== null, logoutUrl: client ? await claveUnicaLogoutUrl(deps, client, clinicKey) : null } };
  });

  app.post("/auth/claveunica/session", access("public", docs.session), async (request, reply) => {
    const signIn = openCookie<ClaveUnicaSignIn & { expiresAt: number }>(deps.config.JWT_SECRET, "handoff", request.cookies[HANDOFF_COOKIE]);
    void reply.clearCookie(HANDOFF_COOKIE, { path: HANDOFF_PATH });
    if (!signIn || signIn.expiresAt < Date.now()) throw new AppError("BAD_REQUEST", noHandoffMessage);
    const { expiresAt: _expiresAt, ...session } = signIn;
    return { payload: session };
  });
}

/** Browser addresses: /claveunica/ingresar and the redirect URI /claveunica/retorno. */
export async function claveUnicaBrowserRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const client = clientFor(deps);
  const backToLogin = (reply: FastifyReply, reason: string) => reply.redirect(`/login?claveunica=${encodeURIComponent(reason)}`, 303);

  app.get<{ Querystring: { next?: string; clinic?: string } }>(
    "/claveunica/ingresar",
    { config: { access: "public" } },
    async (request, reply) => {
      if (!client) return backToLogin(reply, "no-disponible");
      const clinicKey = clinicByKey(request.query.clinic)?.key ?? resolveClinic(`http://${request.headers.host ?? ""}`).key;
      try {
        const { authorizationUrl, flow } = await startClaveUnica(deps, client, { clinicKey, next: request.query.next });
        const maxAge = deps.config.CLAVEUNICA_FLOW_MINUTES * 60;
        void reply.setCookie(FLOW_COOKIE, sealCookie(deps.config.JWT_SECRET, "flow", flow), cookieOptions(request, CALLBACK_PATH, maxAge));
        return reply.header("Cache-Control", "no-store").redirect(authorizationUrl, 303);
      } catch (error) {
        if (error instanceof ClaveUnicaRefusal) return backToLogin(reply, error.reason);
        throw error;
      }
    },
  );

  app.get(CALLBACK_PATH, { config: { access: "public" } }, async (request, reply) => {
    if (!client) return backToLogin(reply, "no-disponible");
    const flow = openCookie<ClaveUnicaFlow>(deps.config.JWT_SECRET, "flow", request.cookies[FLOW_COOKIE]);
    // Single use: whatever happens next, this browser's flow is over.
    void reply.clearCookie(FLOW_COOKIE, { path: CALLBACK_PATH });
    reply.header("Cache-Control", "no-store");
    try {
      const signIn = await finishClaveUnica(
        deps,
        client,
        { callbackUrl: new URL(request.url, "http://portal.invalid"), host: request.headers.host, flow },
        requestMeta(request),
      );
      const handoff = sealCookie(deps.config.JWT_SECRET, "handoff", { ...signIn, expiresAt: Date.now() + HANDOFF_SECONDS * 1000 });
      void reply.setCookie(HANDOFF_COOKIE, handoff, cookieOptions(request, HANDOFF_PATH, HANDOFF_SECONDS));
      return reply.redirect(`/claveunica/listo`, 303);
    } catch (error) {
      if (error instanceof ClaveUnicaRefusal) return backToLogin(reply, error.reason);
      throw error;
    }
  });
}
