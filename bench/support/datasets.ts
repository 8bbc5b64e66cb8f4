import { seedDemoData } from "../../server/db/seed.ts";
import type { Database } from "../../server/db/database.ts";
import { freshDatabase, type FreshDatabase } from "../../tests/helpers/fresh-database.ts";
import { loadUsers } from "../users-search.bench.ts";

// The bench's two data sets, each in a throw-away PostgreSQL database: the demo data alone, and the demo data beside
// 100,000 generated users (95,000 of them patients) and 100,000 bills of 10,000 of those patients, half of them with a
// PDF attached.

export const LARGE_BILLS = 100_000;
const BILL_PATIENTS = 10_000;

/** The PostgreSQL server the bench creates its databases on (the machine's own by default). */
export function benchServerUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

export interface Dataset {
  name: string;
  fresh: FreshDatabase;
  /** The database's own URL, for the portal process. */
  url: string;
  users: number;
  bills: number;
}

export async function createDataset(name: "demo" | "100k", onProgress: (line: string) => void): Promise<Dataset> {
  const started = performance.now();
  const fresh = await freshDatabase(benchServerUrl(), "pp_bench");
  const { db } = fresh;
  await seedDemoData(db.prisma, { onlyWhenEmpty: false });
  if (name === "100k") {
    await loadUsers(db);
    await insertBills(db);
  }
  await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE`);
  const [users, bills] = await Promise.all([db.prisma.user.count(), db.prisma.bill.count()]);
  const [current] = await db.prisma.$queryRawUnsafe<Array<{ name: string }>>(`SELECT current_database() AS name`);
  const databaseUrl = new URL(benchServerUrl());
  databaseUrl.pathname = `/${current!.name}`;
  onProgress(
    `datos "${name}": ${users.toLocaleString("es-CL")} usuarios, ${bills.toLocaleString("es-CL")} cuentas en ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { name, fresh, url: databaseUrl.toString(), users, bills };
}

/** 100,000 bills, ten for each of 10,000 generated patients, over the seven clinics, in one INSERT … SELECT. */
async function insertBills(db: Database): Promise<void> {
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO "Bill" ("accountCode", "createAccountIdDate", "amount", "userId", "clinicCode", "isPaid", "updatedAt")
    SELECT (9000000 + g)::text,
           timestamp '2020-01-01' + ((g * 7919) % 2190) * interval '1 day',
           5000 + (g::bigint * 104729) % 3000000,
           p.id,
           (ARRAY['hcs-rcr','puertomontt-rcr','portada-rcr','losandes-rcr','atacama-rcr','lircay-rcr','maitenes'])[1 + g % 7],
           g % 3 = 0,
           now()
    FROM generate_series(0, ${LARGE_BILLS - 1}) AS g
    JOIN (SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS n FROM "User"
          WHERE "roleType" = 2 AND "email" NOT LIKE '%@portalpacientes.cl' ORDER BY id LIMIT ${BILL_PATIENTS}) AS p
      ON p.n = g % ${BILL_PATIENTS}`);
  // A PDF attached to every other bill (the list shows how many each has).
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO "BillFile" ("billId", "path", "fileName", "size", "content")
    SELECT id, gen_random_uuid()::text, 'detalle.pdf', 24, convert_to('%PDF-1.4 bench %%EOF', 'UTF8')
    FROM "Bill" WHERE id % 2 = 0`);
}
