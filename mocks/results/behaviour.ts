import type { FastifyInstance } from "fastify";

/**
 * How a provider mock answers: normally, as a provider that is down (503 on every call), or as one so slow that the
 * portal's timeout must fire. The mocks app mounts each provider three times, under its normal base and under
 * /fallas/caida/… and /fallas/lenta/…, so tests point the portal at a failing provider by configuration alone.
 */
export type MockBehaviour = "normal" | "down" | "slow";

export const failureBases = { down: "/fallas/caida", slow: "/fallas/lenta" } as const;

/** Slow answers wait this long, or until the client gives up and closes the connection. */
const SLOW_ANSWER_MS = 60_000;

export function applyBehaviour(app: FastifyInstance, behaviour: MockBehaviour, downBody: () => { type: string; body: unknown }) {
  if (behaviour === "down") {
    app.addHook("onRequest", async (_request, reply) => {
      const { type, body } = downBody();
      return reply.status(503).type(type).send(body);
    });
  }
  if (behaviour === "slow") {
    app.addHook("onRequest", async (request) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SLOW_ANSWER_MS);
        timer.unref();
        request.raw.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
  }
}
