import type { FastifyRequest } from "fastify";
import type { RequestMeta } from "../deps.ts";

/** The real client address: Fastify's trustProxy setting decides how far X-Forwarded-For is believed. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"], cookies: request.cookies };
}
