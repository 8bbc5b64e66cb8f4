import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { pgliteExtensions, PGliteAdapterFactory, PortalPgAdapterFactory, type Database, type DatabaseTarget } from "./adapters.ts";
import { applyMigrations } from "./migrate.ts";
import { tryAcquireOwnerLock, type LockOwner, type OwnerLock } from "./owner-lock.ts";
import { servePglite } from "./pglite-server.ts";

export type { Database, DatabaseTarget };

export interface OpenOptions {
  /** The portal waits for a command that holds the folder; a command connects to whoever holds it. */
  role?: "portal" | "command";
  /** How long to wait for the folder's owner to answer (or, for the portal, to let go) before giving up. */
  ownerWaitMs?: number;
  /** In-memory PGlite only: start from this dump of a data directory (tests copy one migrated template). */
  loadDataDir?: Blob;
}

export const defaultPglitePort = 5433;

/** Connections of a process's PostgreSQL pool, all kept open (see postgresDatabase) and all opened by the warm-up. */
export const POOL_CONNECTIONS = 10;

const loopback = "127.0.0.1";

export function databaseTargetFromEnv(databaseUrl: string | undefined, pgliteDir: string, pglitePort = defaultPglitePort): DatabaseTarget {
  return databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: pgliteDir, port: pglitePort };
}

/** The folder is held by a process this one cannot reach: nothing was written. */
export class DatabaseOwnerUnreachableError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    const who = owner.role === "portal" ? "el portal" : "otro comando";
    const where = owner.port === null ? "todavía no acepta conexiones" : `no responde en ${loopback}:${owner.port}`;
    super(
      `La base de datos embebida (${dataDir}) está en uso por ${who} (proceso ${owner.pid}), que ${where}. ` +
        "No se guardó ningún cambio. Detenga el portal (Ctrl+C en su terminal) y vuelva a ejecutar el comando, " +
        "o defina DATABASE_URL para usar un servidor PostgreSQL.",
    );
    this.name = "DatabaseOwnerUnreachableError";
  }
}

/** The portal is already running on this folder. */
export class DatabaseInUseError extends Error {
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `La base de datos embebida (${dataDir}) ya está abierta por ${owner.role === "portal" ? "otro portal" : "un comando que no termina"} ` +
        `(proceso ${owner.pid}). Detenga ese proceso antes de iniciar el portal, o defina DATABASE_URL.`,
    );
    this.name = "DatabaseInUseError";
  }
}

function postgresDatabase(target: DatabaseTarget, url: string, access: Database["access"]): Database {
  // One pool for queries and the schema engine, kept here so its sizes can be reported. allowExitOnIdle: idle connections
  // must not keep a command alive.
  // connectionTimeoutMillis: while the server is unreachable a request fails within 5 s (503) instead of waiting forever.
  // min = max: the connections stay open through quiet moments. pg closes a connection idle for 10 s by default, so
  // the ten the warm-up opens (server/ops/warm-up.ts) were gone after any quiet 10 s, and the next burst waited while
  // ten new ones were opened (each a PostgreSQL backend to start). The bench, which idles for seconds between its
  // loads, measured no difference either way (30-11-2026): the gain is for a burst after a quiet moment.
  const pool = new pg.Pool({
    connectionString: url,
    allowExitOnIdle: true,
    connectionTimeoutMillis: 5_000,
    max: POOL_CONNECTIONS,
    min: POOL_CONNECTIONS,
  });
  keepConnectionsThroughRefusedStatements(pool);
  const adapterFactory = new PortalPgAdapterFactory(pool);
  const prisma = new PrismaClient({ adapter: adapterFactory });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= prisma.$disconnect().then(() => pool.end()));
  const listen: Database["listen"] = (channel, onMessage, onConnected) => listenPostgres(url, channel, onMessage, onConnected);
  // An idle connection the server drops (PostgreSQL restarted) is removed from the pool; without a listener its
  // 'error' event would end the process. The next query opens a new connection.
  pool.on("error", () => {});
  const executeSql = (text: string, values?: unknown[]) => pool.query(text, values);
  return { prisma, adapterFactory, target, access, migrationsApplied: [], pool, listen, executeSql, close };
}

/**
 * pg's `Pool.query` closes the connection of every query that fails, and the pool does not open another until load asks
 * for one (`min` only stops it closing idle ones). PostgreSQL refuses some statements as a matter of course: pg-boss
 * fetches a singleton queue's next job expecting a unique violation while another replica runs one, and a patient's
 * write can break a rule. So the count of a pool that keeps its connections fell (the soak of 1-12-2026: 22 → 19 in
 * 3 min, 14–16 → 7–9 over 30, about four such conflicts a minute), and each burst after paid for new backends.
 * A statement sent with parameters is one statement (the extended protocol), run outside any transaction on a pooled
 * connection, so when PostgreSQL refuses it with an ERROR the session is as it was: that connection goes back to the
 * pool. Anything else still closes it: a lost connection, a FATAL (the session ended), a script that may have opened a
 * transaction. Queries given a callback keep pg's own path (nothing in the portal passes one).
 */
function keepConnectionsThroughRefusedStatements(pool: pg.Pool): void {
  const closingQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const keepingQuery = async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const client = await pool.connect();
    // While checked out a client has no listener for a lost connection; Pool.query adds one, and so must this.
    const onLost = () => {};
    client.on("error", onLost);
    try {
      const result = await client.query(config, values);
      client.release();
      return result;
    } catch (error) {
      client.release(sessionUnharmed(error, config, values) ? undefined : (error as Error));
      throw error;
    } finally {
      client.removeListener("error", onLost);
    }
  };
  pool.query = ((...args: unknown[]) =>
    typeof args.at(-1) === "function"
      ? closingQuery(...args)
      : keepingQuery(...(args as [string | pg.QueryConfig, unknown[]?]))) as pg.Pool["query"];
}

function sessionUnharmed(error: unknown, config: string | pg.QueryConfig, values: unknown[] | undefined): boolean {
  if (!(error instanceof pg.DatabaseError) || error.severity !== "ERROR") return false;
  const parameters = values ?? (typeof config === "string" ? undefined : config.values);
  return (parameters?.length ?? 0) > 0 || (typeof config !== "string" && Boolean(config.name));
}

/** LISTEN on a connection of its own, reconnected every second while lost. */
async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string | undefined) => void,
  onConnected: (connected: boolean) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const reconnectSoon = () => {
    onConnected(false);
    if (!stopped) retry = setTimeout(() => void connect(), 1_000).unref();
  };
  const connect = async () => {
    const candidate = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    candidate.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload);
    });
    candidate.on("error", () => {});
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      await candidate.end().catch(() => {});
      return reconnectSoon();
    }
    if (stopped) return void (await candidate.end().catch(() => {}));
    client = candidate;
    candidate.once("end", () => {
      if (client === candidate) client = undefined;
      reconnectSoon();
    });
    onConnected(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    onConnected(false);
    await client?.end().catch(() => {});
  };
}

/** A statement with parameters through `query`; a script (no parameters) through `exec`, answering its last result. */
function pgliteSql(pglite: PGlite): Database["executeSql"] {
  return async (text, values) => {
    if (values && values.length > 0) return pglite.query(text, values);
    const results = await pglite.exec(text);
    return { rows: results.at(-1)?.rows ?? [] };
  };
}

/** PGlite delivers NOTIFY of its own queries (and of the commands it serves) to listeners in this process. */
function listenPglite(pglite: PGlite): Database["listen"] {
  return async (channel, onMessage, onConnected) => {
    const unlisten = await pglite.listen(channel, (payload) => onMessage(payload));
    onConnected(true);
    return async () => {
      onConnected(false);
      await unlisten();
    };
  };
}

/**
 * Opens the database. `dataDir: null` gives an in-memory PGlite (tests). A PGlite folder is opened by one process
 * only (see owner-lock.ts): the first to take its lock opens it, applies pending migrations and serves it on loopback;
 * any other process connects there with the PostgreSQL adapter, or fails before writing anything.
 */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === "postgres") return postgresDatabase(target, target.url, { mode: "direct" });
  if (!target.dataDir) {
    const pglite = await PGlite.create({ extensions: pgliteExtensions, loadDataDir: options.loadDataDir });
    const adapterFactory = new PGliteAdapterFactory(pglite);
    const prisma = new PrismaClient({ adapter: adapterFactory });
    const close = async () => {
      await prisma.$disconnect();
      await pglite.close();
    };
    return {
      prisma,
      adapterFactory,
      target,
      access: { mode: "direct" },
      migrationsApplied: [],
      listen: listenPglite(pglite),
      executeSql: pgliteSql(pglite),
      dumpDataDir: () => pglite.dumpDataDir("none"),
      close,
    };
  }

  const dataDir = target.dataDir;
  const role = options.role ?? "command";
  mkdirSync(dataDir, { recursive: true });
  const deadline = Date.now() + (options.ownerWaitMs ?? 30_000);
  for (;;) {
    const attempt = tryAcquireOwnerLock(dataDir, { role, port: null });
    if (attempt.acquired) {
      if (attempt.tookOverFrom)
        console.warn(`Se tomó el candado de ${dataDir} que dejó el proceso ${attempt.tookOverFrom.pid}, ya terminado.`);
      return openAsOwner(target, dataDir, role, attempt.lock);
    }
    const owner = attempt.owner;
    if (role === "portal" && owner.role === "portal") throw new DatabaseInUseError(dataDir, owner);
    if (role === "command" && owner.port !== null) {
      const url = `postgresql://postgres@${loopback}:${owner.port}/postgres`;
      if (await answers(url)) return postgresDatabase(target, url, { mode: "client", address: `${loopback}:${owner.port}` });
    }
    if (Date.now() > deadline) {
      throw role === "portal" ? new DatabaseInUseError(dataDir, owner) : new DatabaseOwnerUnreachableError(dataDir, owner);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function openAsOwner(target: DatabaseTarget & { kind: "pglite" }, dataDir: string, role: "portal" | "command", lock: OwnerLock) {
  let pglite: PGlite | undefined;
  try {
    pglite = await PGlite.create({ dataDir, extensions: pgliteExtensions });
    const adapterFactory = new PGliteAdapterFactory(pglite);
    const prisma = new PrismaClient({ adapter: adapterFactory });
    const db: Database = {
      prisma,
      adapterFactory,
      target,
      access: { mode: "owner", address: "" },
      migrationsApplied: [],
      listen: listenPglite(pglite),
      executeSql: pgliteSql(pglite),
      close: async () => {},
    };
    // Before serving, so that no other process migrates at the same time.
    db.migrationsApplied = await applyMigrations(db);
    const server = await servePglite(pglite, { host: loopback, port: target.port ?? defaultPglitePort });
    lock.update({ port: server.port });
    const opened = pglite;
    db.access = { mode: "owner", address: `${loopback}:${server.port}` };
    db.close = async () => {
      // A command that owns the folder lets the commands connected to it finish first.
      await server.stop({ waitForClientsMs: role === "command" ? 30_000 : 0 });
      await prisma.$disconnect();
      await opened.close();
      lock.release();
    };
    return db;
  } catch (error) {
    await pglite?.close().catch(() => {});
    lock.release();
    throw error;
  }
}
