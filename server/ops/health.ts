import { readdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { migrationsDir } from "../db/migrate.ts";
import { access } from "../http/route-access.ts";

// Liveness and readiness for orchestrators, load balancers and the compose health checks (docs/operacion.md):
//  - GET /healthz: the process is up and not shutting down. Never touches the database, so a database outage does
//    not get healthy processes restarted.
//  - GET /readyz: this instance can serve: database answers, every migration of prisma/migrations is applied, Redis
//    answers (when REDIS_URL is set), and the process is not overloaded. A load balancer stops sending it traffic
//    while it answers 503.

export type CheckResult = "ok" | string;

export interface ReadinessDeps {
  prisma: PrismaClient;
  redis: Redis | null;
  /** True while the process is overloaded (@fastify/under-pressure); readiness turns 503, liveness stays 200. */
  isUnderPressure(): boolean;
  /** Folder of the migrations this build ships (tests point it elsewhere). */
  migrationsDir?: string;
}

const checkTimeoutMs = 3_000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} no respondió en ${checkTimeoutMs / 1000} s`)), checkTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Migration folders this build ships that the database has not applied (finished, not rolled back). */
export async function pendingMigrations(prisma: PrismaClient, dir = migrationsDir): Promise<string[]> {
  const shipped = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const applied = await prisma.$queryRaw<Array<{ migration_name: string }>>`
    SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const done = new Set(applied.map((row) => row.migration_name));
  return shipped.filter((name) => !done.has(name)).sort();
}

export async function readinessChecks(deps: ReadinessDeps): Promise<Record<string, CheckResult>> {
  const checks: Record<string, CheckResult> = {};
  try {
    await withTimeout(deps.prisma.$queryRaw`SELECT 1`, "La base de datos");
    checks.database = "ok";
    try {
      const pending = await withTimeout(pendingMigrations(deps.prisma, deps.migrationsDir), "La base de datos");
      checks.migrations = pending.length === 0 ? "ok" : `Faltan migraciones por aplicar: ${pending.join(", ")}`;
    } catch {
      checks.migrations = "No se pudo leer el historial de migraciones";
    }
  } catch (error) {
    const timedOut = error instanceof Error && error.message.includes("no respondió");
    checks.database = timedOut ? (error as Error).message : "La base de datos no responde";
    checks.migrations = "No se pudo comprobar sin base de datos";
  }
  if (deps.redis) {
    try {
      const answer = await withTimeout(deps.redis.ping(), "Redis");
      checks.redis = answer === "PONG" ? "ok" : "Redis respondió algo inesperado";
    } catch (error) {
      checks.redis = error instanceof Error && error.message.includes("no respondió") ? error.message : "Redis no responde";
    }
  }
  checks.load = deps.isUnderPressure() ? "El servidor está sobrecargado" : "ok";
  return checks;
}

/** A health route answers even when the process is overloaded: under-pressure lets it through (see overload.ts). */
const passThroughPressure = () => undefined;

export async function registerHealthRoutes(app: FastifyInstance, deps: ReadinessDeps, isClosing: () => boolean): Promise<void> {
  const routeOptions = { config: { ...access("public").config, pressureHandler: passThroughPressure } };
  app.get("/healthz", routeOptions, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    if (isClosing()) return reply.status(503).send({ status: "closing", message: "El servidor se está deteniendo" });
    return { status: "ok" };
  });
  app.get("/readyz", routeOptions, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    if (isClosing()) return reply.status(503).send({ status: "closing", message: "El servidor se está deteniendo", checks: {} });
    const checks = await readinessChecks(deps);
    // Redis down does not take the instance out of rotation: logins fall back to per-instance limits (issue 24).
    const failed = Object.entries(checks).filter(([name, result]) => result !== "ok" && name !== "redis");
    if (failed.length === 0) return { status: checks.redis && checks.redis !== "ok" ? "degraded" : "ok", checks };
    return reply.status(503).send({ status: "unavailable", message: failed.map(([, result]) => result).join(". "), checks });
  });
}
