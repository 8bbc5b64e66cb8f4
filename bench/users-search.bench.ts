import { BackgroundWork } from "../server/lib/background.ts";
import Fastify from "fastify";
import { loadConfig } from "../server/config.ts";
import { registerAccessTokens } from "../server/lib/tokens.ts";
import { createUserCaches } from "../server/lib/user-cache.ts";
import { rutCheckDigit, formatRut } from "../server/contract/rut.ts";
import { seedClinics } from "../server/db/seed.ts";
import { createProviders } from "../server/providers/index.ts";
import type { AppDeps } from "../server/deps.ts";
import { newUserRow } from "../server/db/users.repository.ts";
import type { UsersPage } from "../server/contract/users.dto.ts";
import { listUsers } from "../server/features/users/users-query.service.ts";
import { sessionUserSelect, type SessionUser } from "../server/http/authenticate.ts";
import { hashPassword } from "../server/lib/passwords.ts";
import type { Database } from "../server/db/database.ts";
import { freshDatabase, type FreshDatabase } from "../tests/helpers/fresh-database.ts";
import { summarize, type BenchResult } from "./bench-stats.ts";

// Staff user search over 100,000 users through the real service (listUsers: count + page, trigram index on
// User.searchText). PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (a throw-away database is
// created and dropped), else in-memory PGlite. Budget: p95 ≤ 150 ms on PostgreSQL, ≤ 400 ms on PGlite.

const USERS = 100_000;
// Rows per createMany: each column of a row (13, and Prisma's updatedAt) is a bind parameter, and PostgreSQL takes at
// most 32,767 in a statement. A larger batch is split by Prisma into statements sent at once on the one connection of
// its transaction, which pg deprecates (tests/api/bench-bulk-load.test.ts).
export const USERS_PER_STATEMENT = 2_000;
const SEARCHES = 50;
const BENCH = "users-search";

const firstNames = [
  "Camila",
  "Javiera",
  "Benjamín",
  "Matías",
  "Valentina",
  "Sofía",
  "Tomás",
  "Joaquín",
  "Isidora",
  "Agustín",
  "Florencia",
  "Vicente",
  "Martina",
  "Cristóbal",
  "Antonella",
  "Maximiliano",
];
const lastNames = [
  "González",
  "Muñoz",
  "Rojas",
  "Díaz",
  "Pérez",
  "Soto",
  "Contreras",
  "Silva",
  "Martínez",
  "Sepúlveda",
  "Morales",
  "Rodríguez",
  "López",
  "Fuentes",
  "Hernández",
  "Torres",
  "Araya",
  "Flores",
  "Espinoza",
  "Valenzuela",
  "Castillo",
  "Tapia",
  "Reyes",
  "Gutiérrez",
];
const domains = ["gmail.com", "hotmail.com", "yahoo.es", "correo.cl", "outlook.com"];

/** A throw-away database for the run (the tests' helper): PostgreSQL on BENCH_DATABASE_URL or TEST_DATABASE_URL, else PGlite. */
export function benchDatabase(): Promise<FreshDatabase> {
  return freshDatabase(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL, "pp_bench");
}

/** Deterministic pseudo-random numbers, so every run searches the same data. */
function generator(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

interface GeneratedUser {
  rut: string;
  email: string;
  lastName: string;
}

/**
 * Loads `count` users (USERS by default) with createMany in batches (precomputed searchText, one shared hash). The trigram index is
 * dropped during the load and rebuilt from its own stored definition afterwards (a bulk load's usual practice),
 * so the searches run against exactly the migration's index.
 */
export async function loadUsers(db: Database, count = USERS): Promise<GeneratedUser[]> {
  const [index] = await db.prisma.$queryRawUnsafe<Array<{ indexdef: string }>>(
    `SELECT indexdef FROM pg_indexes WHERE indexname = 'User_searchText_idx'`,
  );
  if (!index) throw new Error("Falta el índice User_searchText_idx: ¿se aplicaron las migraciones?");
  await db.prisma.$executeRawUnsafe(`DROP INDEX "User_searchText_idx"`);
  const sample = await insertUsers(db, count);
  await db.prisma.$executeRawUnsafe(index.indexdef);
  return sample;
}

async function insertUsers(db: Database, count: number): Promise<GeneratedUser[]> {
  const passwordHash = await hashPassword("Benchmark2026");
  const random = generator(20_260_101);
  const sample: GeneratedUser[] = [];
  for (let start = 0; start < count; start += USERS_PER_STATEMENT) {
    const data = Array.from({ length: Math.min(USERS_PER_STATEMENT, count - start) }, (_, k) => {
      const i = start + k;
      const body = String(5_000_000 + i * 211);
      const rut = `${body}-${rutCheckDigit(body)}`;
      const firstName = firstNames[random(firstNames.length)]!;
      const lastName = lastNames[random(lastNames.length)]!;
      const secondLastName = lastNames[random(lastNames.length)]!;
      const email = `${firstName}.${lastName}${i}@${domains[i % domains.length]}`.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
      const roleType = i % 100 === 0 ? 0 : i % 25 === 0 ? 1 : 2;
      if (i % 997 === 0) sample.push({ rut, email, lastName });
      return newUserRow(
        { rut, email, firstName, lastName, secondLastName, roleType, state: { hasChangedPassword: true, dateTyc: null } },
        passwordHash,
      );
    });
    await db.prisma.user.createMany({ data });
  }
  return sample;
}

interface Search {
  kind: string;
  input: Record<string, unknown>;
}

function searches(sample: GeneratedUser[]): Search[] {
  const random = generator(7);
  const pick = () => sample[random(sample.length)]!;
  const list: Search[] = [];
  for (let i = 0; i < SEARCHES / 5; i++) {
    const user = pick();
    const [body] = user.rut.split("-") as [string];
    list.push({ kind: "rut (fragmento)", input: { param: i % 2 === 0 ? body.slice(1, 7) : formatRut(user.rut).slice(2, 9) } });
    list.push({ kind: "correo (fragmento)", input: { param: user.email.slice(user.email.indexOf(".") + 1, user.email.indexOf("@") + 3) } });
    list.push({
      kind: "apellido",
      input: { param: i % 2 === 0 ? user.lastName : user.lastName.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "") },
    });
    list.push({ kind: "roleType", input: { roleType: i % 2 === 0 ? "1" : "0", param: i % 3 === 0 ? user.lastName.slice(0, 5) : "" } });
    list.push({ kind: "página 3", input: { page: "3", param: i % 2 === 0 ? "" : user.lastName } });
  }
  return list;
}

export default async function run(): Promise<BenchResult[]> {
  const { db, kind, drop } = await benchDatabase();
  try {
    const t0 = performance.now();
    await seedClinics(db.prisma);
    const sample = await loadUsers(db);
    // VACUUM ANALYZE: fresh statistics, and the visibility map and hint bits a long-lived table has, so the first
    // searches do not pay for setting them.
    await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "User"`);
    const loadSeconds = (performance.now() - t0) / 1000;
    console.log(`  ${kind}: ${USERS.toLocaleString("es-CL")} usuarios cargados en ${loadSeconds.toFixed(1)} s`);

    const admin = await db.prisma.user.findFirstOrThrow({
      where: { roleType: 0 },
      select: sessionUserSelect,
    });
    const config = loadConfig({ NODE_ENV: "test" });
    const deps: AppDeps = {
      config,
      prisma: db.prisma,
      sql: db.executeSql,
      providers: { ...createProviders(config), mail: { send: async () => {}, close: () => {} } },
      tokens: await registerAccessTokens(Fastify(), config.JWT_SECRET, config.ACCESS_TOKEN_TTL_MINUTES),
      cache: createUserCaches(0),
      logError: (error) => console.error(error),
      background: new BackgroundWork((error) => console.error(error)),
    };
    // The dataset's admin has no second factor, which every admin must set up before the staff pages answer (issue
    // 27); the bench measures the search an admin past that step runs.
    const actor: SessionUser = { ...admin, totpEnabledAt: admin.totpEnabledAt ?? new Date() };
    const meta = { ip: "127.0.0.1" };
    const plan = searches(sample);

    for (const search of plan.slice(0, 5)) await listUsers(deps, actor, { ...search.input, limit: "10" }, meta); // warm-up
    const byKind = new Map<string, number[]>();
    const all: number[] = [];
    let matched = 0;
    for (const search of plan) {
      const started = performance.now();
      const page: UsersPage = await listUsers(deps, actor, { ...search.input, limit: "10", clinic: "hcs-rcr" }, meta);
      const elapsed = performance.now() - started;
      if (page.total === 0)
        throw new Error(`La búsqueda ${JSON.stringify(search.input)} no encontró usuarios: los datos del benchmark no son los esperados`);
      matched += page.total;
      all.push(elapsed);
      byKind.set(search.kind, [...(byKind.get(search.kind) ?? []), elapsed]);
    }
    const budget = kind === "postgresql" ? 150 : 400;
    return [
      ...[...byKind].map(([name, samples]) => summarize(BENCH, name, samples)),
      summarize(
        BENCH,
        `todas (${kind}, ${USERS / 1000}k usuarios)`,
        all,
        budget,
        `carga ${loadSeconds.toFixed(0)} s; ${Math.round(matched / plan.length)} coincidencias promedio`,
      ),
    ];
  } finally {
    await drop();
  }
}
