import { access } from "../../http/route-access.ts";
import { ZSecondFactorResetInput } from "../../contract/second-factor.ts";
import { resetSecondFactor } from "./second-factor-reset.service.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { getPrivileges, setPrivileges } from "./privileges.service.ts";
import { createUserAccount } from "./user-create.service.ts";
import { resetUserPassword, updateUser } from "./users-admin.service.ts";
import { getUser, listUsers } from "./users-query.service.ts";
import { z } from "zod";
import { payloadOf, payloadWithMessage } from "../../contract/api.dto.ts";
import { ZPrivilegeDto, ZUserDetailDto, ZUsersPage } from "../../contract/users.dto.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import {
  ZCreateUserInput,
  ZListUsersInput,
  ZSetPrivilegesInput,
  ZStaffResetPasswordInput,
  ZUpdateUserInput,
  ZUserId,
} from "./users.schemas.ts";

import { passwordPairFields } from "../../contract/validation.ts";
const tag = "Usuarios";
const byId = z.object({ id: ZUserId });
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  list: { tag, summary: "Busca usuarios (paginado)", querystring: ZListUsersInput, response: ZUsersPage },
  privileges: {
    tag,
    summary: "Clínicas asignadas a un usuario (lista de id_clinic)",
    params: byId,
    response: payloadOf(z.array(ZPrivilegeDto)),
  },
  setPrivileges: {
    tag,
    summary: "Reemplaza las clínicas asignadas a un ejecutivo",
    querystring: z.object({ id_user: ZSetPrivilegesInput.shape.userId }),
    body: ZSetPrivilegesInput.shape.privileges,
    response: payloadOf(z.array(ZPrivilegeDto)),
  },
  resetPassword: {
    tag,
    summary: "Fija la contraseña de un usuario",
    body: ZStaffResetPasswordInput.extend(passwordPairFields),
    response: payloadOf(z.literal(true)),
  },
  resetSecondFactor: {
    tag,
    summary: "Restablece la verificación en dos pasos de otra persona (solo administradores)",
    description:
      "Borra su secreto y sus códigos de recuperación y cierra todas sus sesiones; en su próximo ingreso la configura de nuevo. El motivo queda en la auditoría. Nadie restablece la propia.",
    body: ZSecondFactorResetInput,
    response: payloadOf(z.literal(true)),
    errors: [404, 409],
  },
  get: { tag, summary: "Un usuario, con sus privilegios y clínicas", params: byId, response: payloadOf(ZUserDetailDto) },
  update: { tag, summary: "Actualiza los datos de un usuario", params: byId, body: ZUpdateUserInput, response: payloadOf(ZUserDetailDto) },
  create: {
    tag,
    summary: "Crea un usuario y le envía una contraseña temporal por correo",
    body: ZCreateUserInput,
    response: payloadWithMessage(ZUserDetailDto),
    errors: [409, 502],
  },
} satisfies Record<string, RouteDocs>;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * REST of the staff user administration (SPEC §7 Users). Static paths (filter/users, privileges/…, resetPassword,
 * privileges-array) are distinct from /admin/:id by segment count or method; a non-numeric id answers 400.
 */
export async function usersRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const staffCall = async (request: FastifyRequest) => ({
    user: await requireUser(deps, request.headers.authorization),
    meta: requestMeta(request),
  });

  app.get("/admin/filter/users", access("staff", docs.list), async (request) => {
    const { user, meta } = await staffCall(request);
    return listUsers(deps, user, request.query, meta);
  });

  app.get("/admin/privileges/:id", access("staff", docs.privileges), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await getPrivileges(deps, user, request.params.id, meta) };
  });

  app.post("/admin/privileges-array", access("admin", docs.setPrivileges), async (request) => {
    const { user, meta } = await staffCall(request);
    const query = (request.query ?? {}) as { id_user?: unknown };
    return { payload: await setPrivileges(deps, user, { userId: query.id_user, privileges: request.body }, meta) };
  });

  app.post("/admin/resetPassword", access("staff", docs.resetPassword), async (request) => {
    const { user, meta } = await staffCall(request);
    return { payload: await resetUserPassword(deps, user, request.body, meta) };
  });

  app.post("/admin/second-factor/reset", access("admin", docs.resetSecondFactor), async (request) => {
    const { user, meta } = await staffCall(request);
    return { payload: await resetSecondFactor(deps, user, request.body, meta) };
  });

  app.get("/admin/:id", access("staff", docs.get), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await getUser(deps, user, request.params.id, meta) };
  });

  app.patch("/admin/:id", access("staff", docs.update), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await updateUser(deps, user, request.params.id, request.body, meta) };
  });

  app.post("/admin", access("staff", docs.create), async (request) => {
    const { user, meta } = await staffCall(request);
    const { user: created, message } = await createUserAccount(deps, user, request.body, meta);
    return { payload: created, message };
  });
}
