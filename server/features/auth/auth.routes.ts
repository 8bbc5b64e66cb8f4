import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { bearerToken } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { login, validateToken } from "./auth.service.ts";
import { requestPasswordReset, resetPassword } from "./password-reset.service.ts";
import { AppError, unauthorizedMessage } from "../../lib/errors.ts";

export const resetRequestAnswer = "Si existe una cuenta asociada al Rut ingresado, enviaremos las instrucciones a su correo electrónico.";

/** REST /api/rcr/v1/auth/* of SPEC §7 (login, token validation, password recovery). */
export async function authRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.post("/auth/new-login", access("public"), async (request) => ({
    payload: await login(deps, request.body, "patient", requestMeta(request)),
  }));

  app.post("/auth/admin-login", access("public"), async (request) => ({
    payload: await login(deps, request.body, "staff", requestMeta(request)),
  }));

  app.get("/auth/validate-token", access("user"), async (request) => {
    if (!(await validateToken(deps, request.headers.authorization))) throw new AppError("UNAUTHORIZED", unauthorizedMessage);
    return true;
  });

  app.post("/auth/request-reset-password-rut", access("public"), async (request) => {
    await requestPasswordReset(deps, request.body, requestMeta(request));
    return { payload: true, message: resetRequestAnswer };
  });

  app.post("/auth/new-password", access("public"), async (request) => {
    await resetPassword(deps, bearerToken(request.headers.authorization), request.body, requestMeta(request));
    return { payload: true, message: "Contraseña actualizada" };
  });
}
