import type { FastifyInstance } from "fastify";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { pendingMigrations } from "./health.ts";

// A replica started with MIGRATE_ON_START=false before the one-shot migration ran (a rolling upgrade, compose starting
// out of order, the database still down) must not crash on a missing table: it serves /healthz 200 and /readyz 503
// (the proxy sends it nothing) and, once every migration this build ships is applied, finishes its start-up (the
// clinics' rows) and becomes ready, without a restart (issue 34).

export interface MigrationWait {
  /** Settles once the database is migrated and `onMigrated` ran; never rejects. */
  done: Promise<void>;
  /** True until then. */
  pending(): boolean;
  /** Stops waiting (shutdown). */
  stop(): void;
}

/** Whether every migration this build ships is applied; false when the database cannot say (down, no history yet). */
export async function isMigrated(prisma: PrismaClient, dir?: string): Promise<boolean> {
  try {
    return (await pendingMigrations(prisma, dir)).length === 0;
  } catch {
    return false;
  }
}

/** Checks every `intervalMs` until the database is migrated, then runs `onMigrated` (retried while it fails). */
export function awaitMigrations(
  prisma: PrismaClient,
  onMigrated: () => Promise<void>,
  options: { intervalMs: number; log: (message: string) => void; dir?: string },
): MigrationWait {
  let stopped = false;
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => undefined;
  const pause = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, options.intervalMs);
      timer.unref();
    });
  const done = (async () => {
    while (!stopped) {
      if (await isMigrated(prisma, options.dir)) {
        try {
          await onMigrated();
          finished = true;
          options.log("La base de datos ya está migrada: el portal queda listo para recibir tráfico.");
          return;
        } catch (error) {
          options.log(`La base está migrada pero el inicio no pudo completarse (se reintenta): ${(error as Error).message}`);
        }
      }
      await pause();
    }
  })();
  return {
    done,
    pending: () => !finished,
    stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
    },
  };
}

/**
 * /readyz answers 503 while the start-up waits, even once the migrations are applied and until `onMigrated` (the
 * clinics' rows) is done: readiness alone would turn 200 the moment the migration commits. main.ts also holds it while
 * the process warms up (warm-up.ts).
 */
export function holdReadiness(app: FastifyInstance, wait: Pick<MigrationWait, "pending">): void {
  // A callback hook, like the other per-request hooks that wait for nothing: an async one costs every request a promise
  // (issue 46 §1). Answering here means not calling done (Fastify's "respond from a hook").
  app.addHook("onRequest", (request, reply, done) => {
    if (!wait.pending() || request.url.split("?")[0] !== "/readyz") return done();
    const message = "El servidor está terminando de iniciar";
    void reply
      .status(503)
      .header("Cache-Control", "no-store")
      .send({ status: "unavailable", message, checks: { startup: message } });
  });
}
