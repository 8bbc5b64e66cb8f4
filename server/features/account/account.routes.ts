import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { payloadOf, ZSession } from "../../contract/api.dto.ts";
import { ZUserDto } from "../../contract/users.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { changeOwnPassword, getOwnAccount, updateOwnProfile, ZChangePasswordInput, ZProfileInput } from "./account.service.ts";

import { passwordPairFields } from "../../contract/validation.ts";
const tag = "Mi cuenta";
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  me: { tag, summary: "Datos de la cuenta del usuario con sesión", response: payloadOf(ZUserDto) },
  edit: { tag, summary: "Actualiza los datos personales del usuario con sesión", body: ZProfileInput, response: payloadOf(ZUserDto) },
  changePassword: {
    tag,
    summary: "Cambia la contraseña del usuario con sesión",
    description: "Responde un token de acceso nuevo: los emitidos antes del cambio dejan de valer.",
    body: ZChangePasswordInput.extend(passwordPairFields),
    response: payloadOf(ZSession),
    errors: [429],
  },
} satisfies Record<string, RouteDocs>;

/** REST for the caller's own account ('Mi cuenta', SPEC §7): always the token's user, never an id from the client. */
export async function accountRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/auth/me", access("user", docs.me, { firstLogin: true }), async (request) => {
    const user = await requireUser(deps, request.headers.authorization, { duringFirstLogin: true });
    return { payload: getOwnAccount(user) };
  });

  app.patch("/auth/user-edit", access("user", docs.edit, { firstLogin: true }), async (request) => {
    const user = await requireUser(deps, request.headers.authorization, { duringFirstLogin: true });
    return { payload: await updateOwnProfile(deps, user, request.body, requestMeta(request)) };
  });

  app.post("/auth/change-password-user", access("user", docs.changePassword, { firstLogin: true }), async (request) => {
    const user = await requireUser(deps, request.headers.authorization, { duringFirstLogin: true });
    return { payload: await changeOwnPassword(deps, user, request.body, requestMeta(request)) };
  });
}
