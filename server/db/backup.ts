import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { lockFileName, tryAcquireOwnerLock } from "./owner-lock.ts";

// npm run db:backup / db:restore. PostgreSQL: pg_dump's custom format and pg_restore (the tools that come with the
// server; data first, then indexes and triggers, so restored counts are not counted twice). Embedded PGlite: a copy of
// the whole folder (PGlite's own dumpDataDir, a .tar.gz) taken under the folder's owner lock, so never while the
// portal has it open.

export type BackupTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

export class BackupError extends Error {}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-");

/** Where a backup goes when no file is named: var/backups/<database>-<time>.dump (or .tar.gz for the embedded one). */
export function defaultBackupFile(target: BackupTarget): string {
  const name = target.kind === "postgres" ? decodeURIComponent(new URL(target.url).pathname.slice(1)) || "postgres" : "pglite";
  return path.join("var", "backups", `${name}-${stamp()}${target.kind === "postgres" ? ".dump" : ".tar.gz"}`);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.error) throw new BackupError(`No se pudo ejecutar ${command}: ${result.error.message}. Instale el cliente de PostgreSQL.`);
  if (result.status !== 0) throw new BackupError(`${command} falló: ${result.stderr.trim()}`);
}

/** Holds the embedded folder for this command, or explains who has it. */
function lockFolder(dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const attempt = tryAcquireOwnerLock(dataDir, { role: "command", port: null });
  if (!attempt.acquired) {
    throw new BackupError(
      `La base embebida (${dataDir}) está abierta por otro proceso (pid ${attempt.owner.pid}, ${attempt.owner.role}). ` +
        "Detenga el portal para copiarla o restaurarla, o use PostgreSQL (DATABASE_URL).",
    );
  }
  return attempt.lock;
}

/** Copies the database into `file`; returns the file written. */
export async function backup(target: BackupTarget, file = defaultBackupFile(target)): Promise<string> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (target.kind === "postgres") {
    run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${target.url}`]);
    return file;
  }
  if (!existsSync(path.join(target.dataDir, "PG_VERSION"))) throw new BackupError(`No hay una base embebida en ${target.dataDir}.`);
  const lock = lockFolder(target.dataDir);
  try {
    const pglite = await PGlite.create({ dataDir: target.dataDir, extensions: { pg_trgm } });
    try {
      const archive = await pglite.dumpDataDir("gzip");
      writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    } finally {
      await pglite.close();
    }
  } finally {
    lock.release();
  }
  return file;
}

async function hasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public' LIMIT 1");
    return (result.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores `file` into the target. A target that already holds data is replaced only with `replace` (--yes): the
 * PostgreSQL tables are dropped and recreated; the embedded folder's old files are moved aside, not deleted.
 */
export async function restore(target: BackupTarget, file: string, { replace = false } = {}): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`No existe el archivo ${file}.`);
  if (target.kind === "postgres") {
    if (!replace && (await hasTables(target.url))) {
      throw new BackupError("La base de destino ya tiene datos: agregue --yes para reemplazarlos, o restaure en una base nueva.");
    }
    run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", `--dbname=${target.url}`, file]);
    return;
  }
  const lock = lockFolder(target.dataDir);
  try {
    const existing = readdirSync(target.dataDir).filter((entry) => entry !== lockFileName);
    if (existing.length) {
      if (!replace)
        throw new BackupError(`${target.dataDir} ya tiene una base: agregue --yes para reemplazarla (la actual se guarda aparte).`);
      const aside = `${path.resolve(target.dataDir)}.antes-${stamp()}`;
      mkdirSync(aside);
      for (const entry of existing) renameSync(path.join(target.dataDir, entry), path.join(aside, entry));
      console.log(`La base anterior quedó en ${aside}.`);
    }
    const archive = new Blob([readFileSync(file)]);
    const pglite = await PGlite.create({ dataDir: target.dataDir, loadDataDir: archive, extensions: { pg_trgm } });
    await pglite.query("SELECT 1");
    await pglite.close();
  } finally {
    lock.release();
  }
}
