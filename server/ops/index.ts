import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { registerHealthRoutes } from "./health.ts";
import { registerRequestIdHeader } from "./logging.ts";
import { createMetrics, registerMetrics, type AppMetrics } from "./metrics.ts";
import { registerOverloadGuard } from "./overload.ts";
import { closeRedis, connectRedis } from "./redis.ts";

// What it takes to run the portal in production (issue 15): request ids, overload refusal, /healthz, /readyz,
// /metrics and the Redis connection. buildApp creates it before the services' deps and registers it before any route.

export interface Ops {
  redis: Redis | null;
  metrics: AppMetrics;
}

export function createOps(app: FastifyInstance, config: AppConfig, db: Database): Ops {
  return { redis: connectRedis(config, app.log), metrics: createMetrics(db) };
}

export async function registerOps(
  app: FastifyInstance,
  ops: Ops,
  options: { config: AppConfig; db: Database; trpcProcedures: ReadonlySet<string> },
): Promise<void> {
  const { config, db } = options;
  registerRequestIdHeader(app);
  await registerOverloadGuard(app, config);
  registerMetrics(app, ops.metrics, config, options.trpcProcedures);
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  await registerHealthRoutes(app, { prisma: db.prisma, redis: ops.redis, isUnderPressure: () => app.isUnderPressure() }, () => closing);
  app.addHook("onClose", async () => closeRedis(ops.redis));
}
