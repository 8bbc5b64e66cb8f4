import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";

/** Where the data lives: a PostgreSQL server (DATABASE_URL) or an embedded PGlite folder (zero set-up default). */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };

export interface Database {
  prisma: PrismaClient;
  /** Driver adapter factory for Prisma's schema engine (migrations); see migrate.ts. */
  adapterFactory: PrismaPg | PrismaPGlite;
  target: DatabaseTarget;
  close(): Promise<void>;
}

export function databaseTargetFromEnv(databaseUrl: string | undefined, pgliteDir: string): DatabaseTarget {
  return databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: pgliteDir };
}

const pgliteExtensions = { pg_trgm };

/** PGlite adapter whose scratch "shadow" database (used when diffing migrations) has the same extensions. */
class PGliteAdapterFactory extends PrismaPGlite {
  override async connectToShadowDb() {
    const shadow = await PGlite.create({ extensions: pgliteExtensions });
    return new PrismaPGlite(shadow).connect();
  }
}

/** Opens the database. `dataDir: null` gives an in-memory PGlite (tests). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const adapterFactory = new PrismaPg({ connectionString: target.url });
    const prisma = new PrismaClient({ adapter: adapterFactory });
    return { prisma, adapterFactory, target, close: () => prisma.$disconnect() };
  }
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: target.dataDir ?? undefined, extensions: pgliteExtensions });
  const adapterFactory = new PGliteAdapterFactory(pglite);
  const prisma = new PrismaClient({ adapter: adapterFactory });
  return {
    prisma,
    adapterFactory,
    target,
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
