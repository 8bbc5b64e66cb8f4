import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import type { AppDeps, RequestMeta } from "../deps.ts";
import { authenticate, type SessionUser } from "../http/authenticate.ts";

export interface Context {
  deps: AppDeps;
  meta: RequestMeta;
  authorization: string | undefined;
  /** The authenticated user, loaded once per request on first use. */
  getUser(): Promise<SessionUser | null>;
}

/** Context without Fastify objects, so tests can build callers directly. */
export function createContextInner(deps: AppDeps, meta: RequestMeta, authorization: string | undefined): Context {
  let user: Promise<SessionUser | null> | undefined;
  return { deps, meta, authorization, getUser: () => (user ??= authenticate(deps, authorization)) };
}

export function contextFactory(deps: AppDeps) {
  return ({ req }: CreateFastifyContextOptions) => createContextInner(deps, { ip: req.ip }, req.headers.authorization);
}
