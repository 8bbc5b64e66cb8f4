import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import type { AppDeps, RequestMeta } from "../deps.ts";
import { authenticate, type AuthenticatedUser } from "../http/authenticate.ts";
import { requestMeta } from "../http/request-meta.ts";
import { setDeviceCookie } from "../http/device-cookie.ts";
import type { DeviceCookie } from "../lib/login-throttle.ts";

export interface Context {
  deps: AppDeps;
  meta: RequestMeta;
  authorization: string | undefined;
  /** The authenticated user, loaded once per request on first use. */
  getUser(): Promise<AuthenticatedUser | null>;
  /** Sets a login's device cookie on the answer (absent for callers without HTTP, e.g. tests' createCaller). */
  setDeviceCookie?(cookie: DeviceCookie | undefined): void;
}

/**
 * Context without Fastify objects, so tests can build callers directly. `meta` may be given as a function: it is then
 * read when a procedure first uses it (the cheapest calls, auth.validateToken, never do, and the client address behind
 * the proxy is not free to work out).
 */
export function createContextInner(deps: AppDeps, meta: RequestMeta | (() => RequestMeta), authorization: string | undefined): Context {
  let user: Promise<AuthenticatedUser | null> | undefined;
  let known = typeof meta === "function" ? undefined : meta;
  return {
    deps,
    get meta() {
      return (known ??= (meta as () => RequestMeta)());
    },
    authorization,
    getUser: () => (user ??= authenticate(deps, authorization)),
  };
}

export function contextFactory(deps: AppDeps) {
  return ({ req, res }: CreateFastifyContextOptions): Context => {
    const context = createContextInner(deps, () => requestMeta(req), req.headers.authorization);
    context.setDeviceCookie = (cookie) => setDeviceCookie(res, cookie);
    return context;
  };
}
