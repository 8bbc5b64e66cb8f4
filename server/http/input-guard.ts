import type { FastifyInstance } from "fastify";
import { AppError } from "../lib/errors.ts";

// One guard for every input from outside, REST bodies and tRPC inputs alike: no NUL characters (PostgreSQL text
// refuses them, which answered 500) and no nesting deeper than any endpoint needs. It walks the value with its own
// stack, never by recursion, so a 5,000-level array cannot overflow the call stack (it once did: issue 9, finding 6).

export const forbiddenCharactersMessage = "La solicitud contiene caracteres no permitidos";
export const tooDeepMessage = "La solicitud tiene demasiados niveles anidados";

/** No endpoint takes more than a few levels (privileges-array: body → list → item → field). */
export const MAX_INPUT_DEPTH = 16;

/** Why the value may not reach a handler (Spanish), or null. Work is linear in the size of the value. */
export function inputProblem(value: unknown): string | null {
  const pending: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  while (pending.length > 0) {
    const { item, depth } = pending.pop()!;
    if (typeof item === "string") {
      if (item.includes("\u0000")) return forbiddenCharactersMessage;
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return tooDeepMessage;
    for (const key of Object.keys(item)) {
      if (key.includes("\u0000")) return forbiddenCharactersMessage;
      pending.push({ item: (item as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}

/** Throws a Spanish 400 when the input is not acceptable (see inputProblem). */
export function assertAcceptableInput(value: unknown): void {
  const problem = inputProblem(value);
  if (problem) throw new AppError("BAD_REQUEST", problem);
}

/** The guard on the HTTP side: the address of every request (REST and tRPC), and REST's parsed JSON bodies. */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook("preHandler", (request, _reply, done) => {
    try {
      // In the address: a raw NUL (%00), or a JSON escape of one in a tRPC input (\\u0000 → %5Cu0000).
      if (/%00|%5cu0000/i.test(request.url)) throw new AppError("BAD_REQUEST", forbiddenCharactersMessage);
      assertAcceptableInput(request.body);
      assertAcceptableInput(request.query);
      assertAcceptableInput(request.params);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
