import { access } from "../../http/route-access.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { getPrivileges, setPrivileges } from "./privileges.service.ts";
import { createUserAccount } from "./user-create.service.ts";
import { resetUserPassword, updateUser } from "./users-admin.service.ts";
import { getUser, listUsers } from "./users-query.service.ts";

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

  app.get("/admin/filter/users", access("staff"), async (request) => {
    const { user, meta } = await staffCall(request);
    return listUsers(deps, user, request.query, meta);
  });

  app.get("/admin/privileges/:id", access("staff"), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await getPrivileges(deps, user, request.params.id, meta) };
  });

  app.post("/admin/privileges-array", access("admin"), async (request) => {
    const { user, meta } = await staffCall(request);
    const query = (request.query ?? {}) as { id_user?: unknown };
    return { payload: await setPrivileges(deps, user, { userId: query.id_user, privileges: request.body }, meta) };
  });

  app.post("/admin/resetPassword", access("staff"), async (request) => {
    const { user, meta } = await staffCall(request);
    return { payload: await resetUserPassword(deps, user, request.body, meta) };
  });

  app.get("/admin/:id", access("staff"), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await getUser(deps, user, request.params.id, meta) };
  });

  app.patch("/admin/:id", access("staff"), async (request: IdRequest) => {
    const { user, meta } = await staffCall(request);
    return { payload: await updateUser(deps, user, request.params.id, request.body, meta) };
  });

  app.post("/admin", access("staff"), async (request) => {
    const { user, meta } = await staffCall(request);
    const { user: created, message } = await createUserAccount(deps, user, request.body, meta);
    return { payload: created, message };
  });
}
