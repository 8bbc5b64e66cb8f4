import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppConfig } from "../config.ts";

// An overloaded instance answers 503 with Retry-After at once instead of queueing requests until they time out, so a
// load balancer (or the browser's retry) can go elsewhere. Thresholds are generous by default (an event-loop delay of
// a full second means requests are already waiting that long); /healthz still answers 200 (the process is alive and
// must not be restarted for being busy), /readyz answers 503 (send traffic elsewhere).

export const overloadMessage = "El servidor está sobrecargado. Intente nuevamente en unos segundos.";

type PressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => unknown;

export async function registerOverloadGuard(app: FastifyInstance, config: AppConfig): Promise<void> {
  const refuse: PressureHandler = (request, reply, type, value) => {
    request.log.warn({ pressure: type, value }, "overloaded: request refused");
    void reply.status(503).header("Retry-After", String(config.OVERLOAD_RETRY_AFTER_SECONDS)).header("Cache-Control", "no-store");
    // under-pressure sends what the handler returns.
    return { statusCode: 503, error: "SERVICE_UNAVAILABLE", message: overloadMessage };
  };
  await app.register(underPressure, {
    maxEventLoopDelay: config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: config.OVERLOAD_MAX_HEAP_MB * 1024 * 1024,
    retryAfter: config.OVERLOAD_RETRY_AFTER_SECONDS,
    pressureHandler: refuse as NonNullable<Parameters<typeof underPressure>[1]["pressureHandler"]>,
  });
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A route that must answer even under overload (health, metrics) lets the request through. */
    pressureHandler?: () => undefined;
  }
}
