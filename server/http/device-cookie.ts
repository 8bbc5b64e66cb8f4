import type { FastifyReply } from "fastify";
import type { DeviceCookie } from "../lib/login-throttle.ts";

/**
 * Sets a login's device cookie (server/lib/login-throttle.ts): only the server reads it (HttpOnly), never sent by
 * another site's request (SameSite=Strict), over HTTPS only when the portal is reached by HTTPS (directly or through
 * the trusted proxy).
 */
export function setDeviceCookie(reply: FastifyReply, cookie: DeviceCookie | undefined): void {
  if (!cookie) return;
  void reply.setCookie(cookie.name, cookie.value, {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: reply.request.protocol === "https",
    maxAge: cookie.maxAgeSeconds,
  });
}
