import { Redis } from "ioredis";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";

/**
 * The Redis connection of this instance when REDIS_URL is set (null otherwise). Commands fail after a short wait
 * instead of queueing while Redis is away, so a login answers an error rather than hanging; /readyz reports it.
 */
export function connectRedis(config: AppConfig, log: FastifyBaseLogger): Redis | null {
  if (!config.REDIS_URL) return null;
  const redis = new Redis(config.REDIS_URL, {
    connectTimeout: 5_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let reported = false;
  redis.on("error", (error: Error) => {
    // One line per outage, not one per reconnection attempt.
    if (!reported) log.error({ err: error }, "redis unreachable");
    reported = true;
  });
  redis.on("ready", () => (reported = false));
  return redis;
}

export async function closeRedis(redis: Redis | null): Promise<void> {
  if (!redis) return;
  await redis.quit().catch(() => redis.disconnect());
}
