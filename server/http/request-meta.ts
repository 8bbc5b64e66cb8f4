import type { FastifyRequest } from "fastify";
import type { RequestMeta } from "../deps.ts";
import { ACTING_FOR_HEADER } from "../contract/caregivers.ts";

/** The real client address: Fastify's trustProxy setting decides how far X-Forwarded-For is believed. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const actingFor = request.headers[ACTING_FOR_HEADER.toLowerCase()];
  return {
    ip: request.ip,
    userAgent: request.headers["user-agent"],
    cookies: request.cookies,
    actingFor: typeof actingFor === "string" ? actingFor : undefined,
  };
}
