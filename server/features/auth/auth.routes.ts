import { access } from "../../http/route-access.ts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { setDeviceCookie } from "../../http/device-cookie.ts";
import type { AppDeps } from "../../deps.ts";
import { bearerToken, requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { z } from "zod";
import { payloadOf, payloadWithMessage, ZSession } from "../../contract/api.dto.ts";
import { passwordPairFields } from "../../contract/validation.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { login, logout, ZLoginInput, type LoginPortal } from "./auth.service.ts";
import { requestPasswordReset, resetPassword, ZNewPasswordInput, ZResetRequestInput } from "./password-reset.service.ts";

export const resetRequestAnswer = "Si existe una cuenta asociada al Rut ingresado, enviaremos las instrucciones a su correo electrónico.";

const tag = "Autenticación";
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  newLogin: { tag, summary: "Inicio de sesión de pacientes", body: ZLoginInput, response: payloadOf(ZSession), errors: [429] },
  adminLogin: {
    tag,
    summary: "Inicio de sesión de administradores y ejecutivos",
    body: ZLoginInput,
    response: payloadOf(ZSession),
    errors: [429],
  },
  validateToken: { tag, summary: "Valida el token de acceso (responde true)", response: z.literal(true) },
  logout: {
    tag,
    summary: "Cierra la sesión del token",
    description:
      "Desde ese momento el token deja de servir en todas las instancias del portal. Responde true también si ya estaba cerrada.",
    response: payloadOf(z.literal(true)),
  },
  resetRequest: {
    tag,
    summary: "Pide el correo para restablecer la contraseña",
    description: "Responde lo mismo exista o no una cuenta con ese Rut.",
    body: ZResetRequestInput,
    response: payloadWithMessage(z.literal(true)),
    errors: [429],
  },
  newPassword: {
    tag,
    summary: "Guarda la nueva contraseña",
    description: "El token Bearer es el token de recuperación del enlace enviado por correo, no uno de sesión.",
    // The service takes the pair loosely to answer its own Spanish messages in order; what it accepts is this.
    body: ZNewPasswordInput.extend(passwordPairFields),
    response: payloadWithMessage(z.literal(true)),
  },
} satisfies Record<string, RouteDocs>;

/** REST /api/rcr/v1/auth/* of SPEC §7 (login, token validation, password recovery). */
export async function authRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const signIn = (portal: LoginPortal) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { session, deviceCookie } = await login(deps, request.body, portal, requestMeta(request));
    setDeviceCookie(reply, deviceCookie);
    return { payload: session };
  };
  app.post("/auth/new-login", access("public", docs.newLogin), signIn("patient"));
  app.post("/auth/admin-login", access("public", docs.adminLogin), signIn("staff"));

  app.get("/auth/validate-token", access("user", docs.validateToken, { firstLogin: true }), async (request) => {
    // What validateToken (tRPC auth.validateToken) decides, with the reason: a password-only session awaiting its
    // second factor gets 401 'Ingrese el código de verificación…' (requireUser), one read of the session, not two.
    await requireUser(deps, request.headers.authorization, { duringFirstLogin: true });
    return true;
  });

  app.post("/auth/logout", access("user", docs.logout, { firstLogin: true, secondFactor: true }), async (request) => ({
    payload: await logout(
      deps,
      await requireUser(deps, request.headers.authorization, { duringFirstLogin: true, duringSecondFactor: true }),
      requestMeta(request),
    ),
  }));

  app.post("/auth/request-reset-password-rut", access("public", docs.resetRequest), async (request) => {
    await requestPasswordReset(deps, request.body, requestMeta(request));
    return { payload: true, message: resetRequestAnswer };
  });

  app.post("/auth/new-password", access("public", docs.newPassword), async (request) => {
    await resetPassword(deps, bearerToken(request.headers.authorization), request.body, requestMeta(request));
    return { payload: true, message: "Contraseña actualizada" };
  });
}
