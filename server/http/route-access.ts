import type { RouteDocs } from "./route-docs.ts";

// Who may call a route, declared on every REST route (`{ config: { access } }`) and every tRPC procedure
// (`.meta({ access })`). Handlers still enforce access themselves; the security suite (tests/security) reads these
// declarations from the route table and checks each route against them, so a new route cannot go unchecked.

/**
 * "user" = any signed-in account; "patient" = role 2; "staff" = admin or executive; "admin" = role 0; "signed" = whoever
 * holds a valid short-lived signed link (the link is the credential, e.g. a bill PDF download; tested by its feature).
 */
export type RouteAccess = "public" | "signed" | "user" | "patient" | "staff" | "admin";

/** A route's access, and its entry in the API document (/api/docs; see route-docs.ts). */
export const access = (level: RouteAccess, docs?: RouteDocs) => ({ config: { access: level, docs } });

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    docs?: RouteDocs;
  }
}
