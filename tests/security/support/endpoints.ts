import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { API_PREFIX } from "../../../server/app.ts";
import type { RouteAccess } from "../../../server/http/route-access.ts";
import { appRouter } from "../../../server/trpc/router.ts";
import type { CaregiverPart } from "../../../server/contract/caregivers.ts";

// Every endpoint of the portal, read from the live route table (REST, with each route's declared access) and from the
// tRPC router (each procedure's meta). Routes other branches add (bills, payments, results) appear here by themselves.

export type Role = "none" | "patient" | "executive" | "admin";
export const roles: Role[] = ["none", "patient", "executive", "admin"];

export interface Endpoint {
  kind: "rest" | "trpc";
  /** "GET /api/rcr/v1/admin/:id" or "trpc users.get (query)" */
  name: string;
  method: string;
  /** REST: the path pattern with :params; tRPC: the procedure path. */
  path: string;
  access: RouteAccess | undefined;
  /** Open to a patient who has not finished the first login (terms, temporary password). */
  firstLogin: boolean;
  /** Open to a password-only session of a person with a second factor (issue 27: verify-otp and logout only). */
  secondFactor: boolean;
  /** The part of the portal a caregiver needs a link for to call it for a dependent (X-Actuar-Por; issue 30). */
  caregiverPart?: CaregiverPart;
  /** Field names the endpoint's zod input schema knows (tRPC), for the bad-input properties. */
  fields: string[];
  /** Every input the endpoint takes by name: REST path, query and body fields (from its API docs), tRPC input fields. */
  inputs: string[];
  /** tRPC procedure type. */
  procedureType?: "query" | "mutation";
}

/** The REST routes of the contract (the tRPC plugin's own routes are covered procedure by procedure). */
export function restEndpoints(app: FastifyInstance): Endpoint[] {
  return app.routeTable
    .filter((route) => route.url.startsWith(API_PREFIX) && route.method !== "HEAD" && route.method !== "OPTIONS")
    .map((route) => ({
      kind: "rest" as const,
      name: `${route.method} ${route.url}`,
      method: route.method,
      path: route.url,
      access: route.access,
      firstLogin: route.firstLogin,
      secondFactor: route.secondFactor,
      caregiverPart: route.caregiverPart,
      fields: [],
      inputs: [
        ...new Set([route.docs?.params, route.docs?.querystring, route.docs?.body, route.docs?.multipart?.fields].flatMap(schemaFields)),
      ],
    }));
}

/** Keys of a zod schema's object shape, looking through optional/default/pipe/preprocess wrappers. */
export function schemaFields(schema: unknown): string[] {
  let current = schema as z.ZodType | undefined;
  for (let i = 0; i < 10 && current; i++) {
    if (current instanceof z.ZodObject) return Object.keys(current.shape);
    const def = (current as unknown as { _zod?: { def?: { innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType } } })._zod?.def;
    current = def?.innerType ?? def?.out ?? def?.in;
  }
  return [];
}

interface ProcedureLike {
  _def: {
    type: "query" | "mutation" | "subscription";
    meta?: { access?: RouteAccess; firstLogin?: boolean; secondFactor?: boolean; caregiverPart?: CaregiverPart };
    inputs?: unknown[];
  };
}

export function trpcEndpoints(): Endpoint[] {
  return Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureLike>).map(([path, procedure]) => {
    const type = procedure._def.type === "query" ? "query" : "mutation";
    return {
      kind: "trpc" as const,
      name: `trpc ${path} (${type})`,
      method: type === "query" ? "GET" : "POST",
      path,
      access: procedure._def.meta?.access,
      firstLogin: procedure._def.meta?.firstLogin ?? false,
      secondFactor: procedure._def.meta?.secondFactor ?? false,
      caregiverPart: procedure._def.meta?.caregiverPart,
      fields: (procedure._def.inputs ?? []).flatMap(schemaFields),
      inputs: (procedure._def.inputs ?? []).flatMap(schemaFields),
      procedureType: type,
    };
  });
}

/** Which signed-in roles an access level admits. */
export function admits(access: RouteAccess, role: Role): boolean {
  switch (access) {
    case "public":
    case "signed":
      return true;
    case "user":
      return role !== "none";
    case "patient":
      return role === "patient";
    case "staff":
      return role === "executive" || role === "admin";
    case "admin":
      return role === "admin";
  }
}

/** A path with its :params filled: ids with the given id, other params (clinic keys) with a real clinic. */
export function fillPath(pattern: string, id: number | string): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_match, name: string) => (/id$/i.test(name) ? String(id) : "hcs-rcr"));
}

/** Whether a route addresses something by id (the BOLA part of the matrix). */
export const takesId = (endpoint: Endpoint) => /:[A-Za-z_]*id\b/i.test(endpoint.path) || endpoint.fields.includes("id");
