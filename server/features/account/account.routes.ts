import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { changeOwnPassword, getOwnAccount, updateOwnProfile } from "./account.service.ts";

/** REST for the caller's own account ('Mi cuenta', SPEC §7): always the token's user, never an id from the client. */
export async function accountRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/auth/me", access("user"), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: getOwnAccount(user) };
  });

  app.patch("/auth/user-edit", access("user"), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await updateOwnProfile(deps, user, request.body, requestMeta(request)) };
  });

  app.post("/auth/change-password-user", access("user"), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await changeOwnPassword(deps, user, request.body, requestMeta(request)) };
  });
}
