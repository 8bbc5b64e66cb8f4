import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { PrismaClient } from "../generated/prisma/client.ts";

// What a database is and how Prisma talks to it, shared by the opener (database.ts) and the migrator (migrate.ts)
// without either importing the other.

/** Where the data lives: a PostgreSQL server (DATABASE_URL) or an embedded PGlite folder (zero set-up default). */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  /** `port`: where the folder's owner serves it on loopback (PGLITE_PORT). */
  | { kind: "pglite"; dataDir: string | null; port?: number };

export interface Database {
  prisma: PrismaClient;
  /** Driver adapter factory for Prisma's schema engine (migrations); see migrate.ts. */
  adapterFactory: PrismaPg | PrismaPGlite;
  target: DatabaseTarget;
  /**
   * How this process reaches the data: `owner` opened the PGlite folder itself (and serves it on `address`), `client`
   * connects to the folder's owner on `address`; `direct` is PostgreSQL or an in-memory PGlite.
   */
  access: { mode: "direct" } | { mode: "owner" | "client"; address: string };
  /** Migrations the owner applied while opening the folder (before anyone else could connect). */
  migrationsApplied: string[];
  /**
   * Subscribes to NOTIFY on `channel` (a dedicated connection on PostgreSQL, reconnected when lost; PGlite's own
   * listener in process). `onConnected(false)` says notifications may be missed until the next `onConnected(true)`.
   */
  listen(
    channel: string,
    onMessage: (payload: string | undefined) => void,
    onConnected: (connected: boolean) => void,
  ): Promise<() => Promise<void>>;
  /**
   * Runs raw SQL outside Prisma (AppDeps.sql), for the job engine (pg-boss), the hot list reads and each request's
   * audit row: with `values`, one parameterised statement; without, a script of several statements. On PostgreSQL
   * through the shared pool; on PGlite in process.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** The connection pool on PostgreSQL (its sizes are exported at /metrics); none on an embedded PGlite opened here. */
  pool?: pg.Pool;
  /** An in-memory PGlite's whole data directory, for `openDatabase(…, { loadDataDir })` (tests copy one template). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export const pgliteExtensions = { pg_trgm };

/** PGlite adapter whose scratch "shadow" database (used when diffing migrations) has the same extensions. */
export class PGliteAdapterFactory extends PrismaPGlite {
  override async connectToShadowDb() {
    const shadow = await PGlite.create({ extensions: pgliteExtensions });
    return new PrismaPGlite(shadow).connect();
  }
}

/**
 * PostgreSQL adapter that runs a migration script as one simple-protocol query, as psql would. The stock adapter
 * splits scripts at every ";", which cuts a function body apart (the row-change trigger of a migration).
 */
export class PortalPgAdapterFactory extends PrismaPg {
  override async connect() {
    return wholeScripts(await super.connect());
  }
  override async connectToShadowDb() {
    return wholeScripts(await super.connectToShadowDb());
  }
}

function wholeScripts<A extends { executeScript(script: string): Promise<void> }>(adapter: A): A {
  const queryable = adapter as unknown as { client: pg.Pool; onError(error: unknown): never };
  adapter.executeScript = async (script: string) => {
    try {
      await queryable.client.query(script);
    } catch (error) {
      queryable.onError(error);
    }
  };
  return adapter;
}

/**
 * What Prisma's schema engine migrates through (see migrate.ts). On PostgreSQL: a small pool of its own, ended after
 * use, because the engine takes its advisory lock (key 72707369) on one connection and never releases it; on the
 * portal's shared pool that connection would go back to serving queries with the lock still held, and the next process
 * that migrates (a command, another replica) would time out waiting for it. Elsewhere: the database's own adapter.
 */
export function migrationConnection(db: Database): { adapterFactory: PrismaPg | PrismaPGlite; pool?: pg.Pool; close(): Promise<void> } {
  if (db.target.kind !== "postgres") return { adapterFactory: db.adapterFactory, close: async () => {} };
  const pool = new pg.Pool({ connectionString: db.target.url, max: 3, allowExitOnIdle: true });
  return { adapterFactory: new PortalPgAdapterFactory(pool), pool, close: () => pool.end() };
}
