import type { RouteDocs } from "./route-docs.ts";
import type { CaregiverPart } from "../contract/caregivers.ts";

// Who may call a route, declared on every REST route (`{ config: { access } }`) and every tRPC procedure
// (`.meta({ access })`). Handlers still enforce access themselves; the security suite (tests/security) reads these
// declarations from the route table and checks each route against them, so a new route cannot go unchecked.

/**
 * "user" = any signed-in account; "patient" = role 2; "staff" = admin or executive; "admin" = role 0; "signed" = whoever
 * holds a valid short-lived signed link (the link is the credential, e.g. a bill PDF download; tested by its feature).
 */
export type RouteAccess = "public" | "signed" | "user" | "patient" | "staff" | "admin";

/**
 * A route's access, and its entry in the API document (/api/docs; see route-docs.ts). `firstLogin` declares a route of
 * the patient's first-login journey (terms, password change, 'Mi cuenta' data, logout), open before it is finished;
 * every other signed-in route refuses such a patient (requireUser). The security suite holds routes to it.
 *
 * `secondFactor` declares a route open to a password-only session of a person with a second factor (issue 27): only
 * the second step (verify-otp) and logout. Every other signed-in route answers such a session 401 (requireUser).
 */
/**
 * `caregiverPart` declares a patient route that acts for a dependent named by X-Actuar-Por (issue 30) through a
 * caregiver link covering that part (actingForPatient in lib/access.ts); the security suite tries every such route
 * with live, expired, revoked and part-less links.
 */
export const access = (
  level: RouteAccess,
  docs?: RouteDocs,
  options: { firstLogin?: boolean; secondFactor?: boolean; caregiverPart?: CaregiverPart } = {},
) => ({
  config: {
    access: level,
    docs,
    firstLogin: options.firstLogin ?? false,
    secondFactor: options.secondFactor ?? false,
    caregiverPart: options.caregiverPart,
  },
});

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    docs?: RouteDocs;
    firstLogin?: boolean;
    secondFactor?: boolean;
    caregiverPart?: CaregiverPart;
  }
}
