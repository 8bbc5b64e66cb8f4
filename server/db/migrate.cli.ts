import { loadConfig } from "../config.ts";
import { databaseTargetFromEnv, openDatabase } from "./database.ts";
import { applyMigrations, createMigration } from "./migrate.ts";
import { grantAppRole } from "./roles.ts";
import { loadEnvFile } from "../lib/env-file.mjs";
loadEnvFile();

// npm run db:migrate            → applies pending migrations to the configured database (through the running portal
//                                 when it owns the embedded folder; see database.ts)
// npm run db:diff -- <name>     → writes prisma/migrations/<stamp>_<name> from the schema (uses a scratch in-memory
//                                 database, never the configured one)
const [command, name] = process.argv.slice(2);
try {
  if (command === "diff") {
    if (!name) throw new Error("Uso: npm run db:diff -- <nombre>");
    const scratch = await openDatabase({ kind: "pglite", dataDir: null });
    const dir = await createMigration(scratch, name);
    console.log(dir ? `Migración creada: ${dir}` : "El esquema no tiene cambios.");
    await scratch.close();
  } else {
    const config = loadConfig();
    const db = await openDatabase(databaseTargetFromEnv(config.DATABASE_URL, config.PGLITE_DIR, config.PGLITE_PORT), {
      ownerWaitMs: config.PGLITE_OWNER_WAIT_SECONDS * 1000,
    });
    try {
      const applied = [...db.migrationsApplied, ...(await applyMigrations(db))];
      console.log(applied.length ? `Migraciones aplicadas: ${applied.join(", ")}` : "La base de datos está al día.");
      // Least privilege: this command runs as the owner; the replicas' role gets data rights on every table (roles.ts).
      if (config.DATABASE_APP_ROLE) {
        if (db.target.kind !== "postgres") throw new Error("DATABASE_APP_ROLE solo se usa con PostgreSQL (DATABASE_URL).");
        await grantAppRole(db.prisma, config.DATABASE_APP_ROLE);
        console.log(`Permisos del rol ${config.DATABASE_APP_ROLE} al día (solo datos; la auditoría, solo leer y agregar).`);
      }
    } finally {
      await db.close();
    }
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
