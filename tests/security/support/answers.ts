import { expect } from "vitest";

/** English words and internals that must never reach a client (Fastify, tRPC, zod, Prisma, Node). */
export const foreignText =
  /expected|invalid input|unexpected|procedure|missing|unsupported|not found|exceeded|client error|internal server|stack|prisma|FST_|TypeError|ReferenceError|at .*\.ts|SQL|syntax|undefined|null byte/i;

interface Answer {
  statusCode: number;
  body: string;
}

/** The message of a REST ({ message }) or tRPC ({ error: { message } }) answer, or the raw body. */
export function answerMessage(answer: Answer): string {
  try {
    const parsed = JSON.parse(answer.body) as
      { message?: unknown; error?: { message?: unknown } } | Array<{ error?: { message?: unknown } }>;
    if (Array.isArray(parsed)) return parsed.map((item) => String(item.error?.message ?? "")).join(" | ");
    return String(parsed.message ?? parsed.error?.message ?? "");
  } catch {
    return answer.body;
  }
}

/** A 4xx whose message is Spanish and says nothing internal. */
export function expectSpanishClientError(answer: Answer): void {
  expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
  expect(answer.statusCode, answer.body).toBeLessThan(500);
  const message = answerMessage(answer);
  expect(message.length, answer.body).toBeGreaterThan(0);
  expect(message, answer.body).not.toMatch(foreignText);
}
