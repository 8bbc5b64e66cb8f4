import type { FastifyInstance } from "fastify";
import { AppError } from "../lib/errors.ts";

export const forbiddenCharactersMessage = "La solicitud contiene caracteres no permitidos";

/** True when a string anywhere in the value (keys included) holds a NUL character, which PostgreSQL text refuses. */
export function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object") return Object.entries(value).some(([key, item]) => key.includes("\u0000") || containsNul(item));
  return false;
}

/** Refuses NUL characters in the address or the body of any request (REST and tRPC) with a Spanish 400. */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook("preHandler", async (request) => {
    // In the address: a raw NUL (%00), or a JSON escape of one in a tRPC input (\\u0000 → %5Cu0000).
    if (/%00|%5cu0000/i.test(request.url) || containsNul(request.body)) throw new AppError("BAD_REQUEST", forbiddenCharactersMessage);
  });
}
