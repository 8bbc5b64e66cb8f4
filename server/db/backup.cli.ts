import { loadConfig } from "../config.ts";
import { backup, BackupError, restore, type BackupTarget } from "./backup.ts";
import { loadEnvFile } from "../lib/env-file.mjs";
loadEnvFile();

// npm run db:backup [-- <archivo>]           → copies the configured database (DATABASE_URL, or the embedded one)
// npm run db:restore -- <archivo> [--yes]    → restores it; --yes replaces a database that already has data
const [command, ...rest] = process.argv.slice(2);
const replace = rest.includes("--yes");
const file = rest.find((arg) => arg !== "--yes");
try {
  const config = loadConfig();
  const target: BackupTarget = config.DATABASE_URL
    ? { kind: "postgres", url: config.DATABASE_URL }
    : { kind: "pglite", dataDir: config.PGLITE_DIR };
  if (command === "backup") {
    console.log(`Copia de seguridad escrita en ${await backup(target, file)}`);
  } else if (command === "restore") {
    if (!file) throw new BackupError("Uso: npm run db:restore -- <archivo> [--yes]");
    await restore(target, file, { replace });
    console.log(`Base restaurada desde ${file}.`);
  } else {
    throw new BackupError("Uso: backup.cli.ts backup [archivo] | restore <archivo> [--yes]");
  }
} catch (error) {
  console.error(error instanceof BackupError ? error.message : (error as Error).message);
  process.exitCode = 1;
}
