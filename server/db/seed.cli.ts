import { loadConfig } from "../config.ts";
import { databaseTargetFromEnv, openDatabase } from "./database.ts";
import { applyMigrations } from "./migrate.ts";
import { seedDemoData } from "./seed.ts";
import { loadEnvFile } from "../lib/env-file.mjs";
loadEnvFile();

// npm run db:seed → adds the demo clinics and any missing demo account (idempotent).
// On the embedded database it goes through the running portal when there is one (see database.ts).
const config = loadConfig();
if (config.NODE_ENV === "production" && config.SEED_DEMO !== true) {
  console.error("No se cargan cuentas de demostración (contraseñas conocidas) en producción; use SEED_DEMO=true si de verdad las quiere.");
  process.exit(1);
}
try {
  const db = await openDatabase(databaseTargetFromEnv(config.DATABASE_URL, config.PGLITE_DIR, config.PGLITE_PORT), {
    ownerWaitMs: config.PGLITE_OWNER_WAIT_SECONDS * 1000,
  });
  try {
    await applyMigrations(db);
    const { created } = await seedDemoData(db.prisma, { onlyWhenEmpty: false });
    console.log(`Datos de demostración listos (${created} cuentas nuevas).`);
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(`No se cargaron los datos de demostración: ${(error as Error).message}`);
  process.exitCode = 1;
}
