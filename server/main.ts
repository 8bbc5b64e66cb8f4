import { sealStoredTotpSecrets } from "./features/auth/totp-secrets.ts";
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { databaseTargetFromEnv, openDatabase } from "./db/database.ts";
import { applyMigrations } from "./db/migrate.ts";
import { seedAtStartup } from "./db/seed.ts";
import { awaitMigrations, holdReadiness, isMigrated, type MigrationWait } from "./ops/await-migrations.ts";
import { prepareWarmUp } from "./ops/warm-up.ts";
import { productionProblems, productionRefusal } from "./ops/production-guard.ts";
import { loadEnvFile } from "./lib/env-file.mjs";
loadEnvFile();

// Starts the portal: migrations (unless MIGRATE_ON_START=false), clinics (and demo accounts on an empty database in development), then the HTTP server.
const config = loadConfig();
// Production on the simulators or Transbank's integration credentials is a mistake, not a start (PORTAL_DEMO=true: a demo).
const problems = productionProblems(config);
if (problems.length) {
  console.error(productionRefusal(problems));
  process.exit(78); // EX_CONFIG (sysexits.h): the configuration, not the process, must change
}
// On the embedded database the portal owns the folder and serves it to operator commands (see db/database.ts).
const db = await openDatabase(databaseTargetFromEnv(config.DATABASE_URL, config.PGLITE_DIR, config.PGLITE_PORT), {
  role: "portal",
  ownerWaitMs: 60_000,
}).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
if (db.access.mode === "owner") {
  const [host, port] = db.access.address.split(":");
  console.log(
    `Base de datos embebida servida en ${db.access.address} (psql: PGSSLMODE=disable psql -h ${host} -p ${port} -U postgres postgres).`,
  );
}
const applied = [...db.migrationsApplied, ...(config.MIGRATE_ON_START ? await applyMigrations(db) : [])];
if (applied.length) console.log(`Migraciones aplicadas: ${applied.join(", ")}`);
// Not migrated yet (MIGRATE_ON_START=false, the one-shot migration still to run, or the database down): serve /healthz
// and answer /readyz 503 until it is, then finish starting, without a restart (ops/await-migrations.ts).
let migrationWait: MigrationWait | undefined;
// The seed, then the second factor's secrets sealed with the current key (clear ones from before, or after a rotation).
const prepareData = async () => {
  await seedAtStartup(db.prisma, config);
  const sealed = await sealStoredTotpSecrets({ prisma: db.prisma, config });
  if (sealed) console.log(`Secretos del segundo factor sellados con la clave actual: ${sealed}`);
};
if (await isMigrated(db.prisma)) await prepareData();
else {
  console.warn("La base de datos no está migrada (o no responde): /readyz responde 503 hasta que lo esté.");
  migrationWait = awaitMigrations(db.prisma, prepareData, {
    intervalMs: 2_000,
    log: (message) => console.log(message),
  });
}

// On PostgreSQL, background jobs start after the warm-up, which runs inside a transaction that is rolled back
// (ops/warm-up.ts). An embedded PGlite has no such rounds, and its job engine starts at once, as before: its start
// runs on this event loop, better before the first users than after /readyz.
const app = await buildApp({ config, db, holdBackgroundJobs: db.target.kind === "postgres" });
// /readyz stays 503 until the start-up is done and the process is warm (ops/warm-up.ts): the proxy sends the first
// users to a process that has its connections open and its hot routes compiled. Any other request that arrives
// meanwhile waits for the warm-up to end.
// The job engine's start (pg-boss checks its schema, creates its queues, sets up the schedules and the workers' first
// fetches) is part of that start-up too: paid before /readyz, not in the first users' seconds. A database that does not
// answer does not hold readiness: the engine keeps retrying in the background.
const warmUp = prepareWarmUp(app);
let jobsStarting = true;
holdReadiness(app, { pending: () => (migrationWait?.pending() ?? false) || warmUp.pending() || jobsStarting });
await app.listen({ host: config.HOST, port: config.PORT });
void (migrationWait?.done ?? Promise.resolve())
  .then(() => warmUp.run())
  .then(
    ({ ms, realRoutes, skipped }) => app.log.info({ ms: Math.round(ms), realRoutes, skipped }, "warm-up done"),
    (error: unknown) => app.log.warn({ err: error }, "warm-up failed (the first requests are slower)"),
  )
  .finally(async () => {
    await app.startBackgroundJobs();
    jobsStarting = false;
  });

// SIGTERM/SIGINT: stop accepting, let requests in flight finish, then close the payment sweep, providers, Redis (onClose
// hooks) and the database; past SHUTDOWN_GRACE_SECONDS the process exits anyway (code 1). A second signal exits at once.
closeWithGrace({ delay: config.SHUTDOWN_GRACE_SECONDS * 1000, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "fatal error: shutting down");
  else app.log.info({ signal }, "shutting down");
  migrationWait?.stop();
  await app.close();
  await db.close();
});
