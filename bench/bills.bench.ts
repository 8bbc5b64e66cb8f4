import { BackgroundWork } from "../server/lib/background.ts";
import Fastify from "fastify";
import { loadConfig } from "../server/config.ts";
import { registerAccessTokens } from "../server/lib/tokens.ts";
import { createUserCaches } from "../server/lib/user-cache.ts";
import { rutCheckDigit } from "../server/contract/rut.ts";
import { seedClinics } from "../server/db/seed.ts";
import { newUserRow } from "../server/db/users.repository.ts";
import type { AppDeps } from "../server/deps.ts";
import { createProviders } from "../server/providers/index.ts";
import { listPatientBills, listStaffBills } from "../server/features/bills/bills.service.ts";
import { sessionUserSelect, type SessionUser } from "../server/http/authenticate.ts";
import { summarize, type BenchResult } from "./bench-stats.ts";
import { benchDatabase } from "./users-search.bench.ts";

// Bills at scale: 100,000 bills over 10,000 patients at the seven clinics, each with a file row (small bytes, never
// read by a list). Measures through the real services (count + page, audit row included):
// - a patient's page with each allowed sort and direction (GET /files/accounts/{rut});
// - the staff search (GET /files/filter/users) as an admin and as an executive of two clinics, with every allowed
//   sort, with and without a search term (account code prefix, RUT fragment, surname).
// Budget p95: ≤ 75 ms for the patient's page and ≤ 200 ms for the staff search on PostgreSQL (×3 on PGlite), set
// with headroom over runs on a shared 2-core machine (see docs/rendimiento.md).

const PATIENTS = 10_000;
const BILLS = 100_000;
const BATCH = 5_000;
const BENCH = "bills";
const clinicKeys = ["hcs-rcr", "puertomontt-rcr", "portada-rcr", "losandes-rcr", "atacama-rcr", "lircay-rcr", "maitenes"];
const surnames = [
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
  "Fuentes",
];
const names = ["Camila", "Javiera", "Benjamín", "Matías", "Valentina", "Sofía", "Tomás", "Joaquín"];

function generator(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

const tinyPdf = new Uint8Array(Buffer.from("%PDF-1.4\n% bench\n%%EOF\n"));

async function load(deps: AppDeps): Promise<{ patientRuts: string[] }> {
  const prisma = deps.prisma;
  const random = generator(42);
  const patientRuts: string[] = [];
  for (let start = 0; start < PATIENTS; start += BATCH) {
    const data = Array.from({ length: Math.min(BATCH, PATIENTS - start) }, (_, k) => {
      const i = start + k;
      const body = String(8_000_000 + i * 37);
      const rut = `${body}-${rutCheckDigit(body)}`;
      patientRuts.push(rut);
      const firstName = names[random(names.length)]!;
      const lastName = surnames[random(surnames.length)]!;
      const email = `paciente${i}@correo.cl`;
      return newUserRow({ rut, email, firstName, lastName, roleType: 2, state: { hasChangedPassword: true, dateTyc: null } }, "x");
    });
    await prisma.user.createMany({ data });
  }
  const ids = await prisma.user.findMany({ where: { roleType: 2 }, select: { id: true }, orderBy: { id: "asc" } });
  for (let start = 0; start < BILLS; start += BATCH) {
    const data = Array.from({ length: Math.min(BATCH, BILLS - start) }, (_, k) => {
      const i = start + k;
      return {
        accountCode: String(1_000_000 + i),
        userId: ids[i % ids.length]!.id,
        clinicCode: clinicKeys[random(clinicKeys.length)]!,
        createAccountIdDate: new Date(Date.UTC(2020, 0, 1) + random(6 * 365) * 86_400_000),
        amount: 5_000 + random(3_000_000),
        isPaid: random(3) === 0,
      };
    });
    await prisma.bill.createMany({ data });
  }
  const first = await prisma.bill.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true } });
  for (let start = 0; start < BILLS; start += BATCH * 2) {
    const data = Array.from({ length: Math.min(BATCH * 2, BILLS - start) }, (_, k) => ({
      billId: first.id + start + k,
      path: `00000000-0000-4000-8000-${String(start + k).padStart(12, "0")}`,
      fileName: "detalle.pdf",
      size: tinyPdf.length,
      content: tinyPdf,
    }));
    await prisma.billFile.createMany({ data });
  }
  return { patientRuts };
}

async function time(samples: number[], task: () => Promise<unknown>) {
  const started = performance.now();
  await task();
  samples.push(performance.now() - started);
}

export default async function run(): Promise<BenchResult[]> {
  const { db, kind, drop } = await benchDatabase();
  try {
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
    const t0 = performance.now();
    await seedClinics(db.prisma);
    // Staff past the second step, as every admin and executive must be before the staff pages answer (issue 27).
    const enrolled = <T extends object>(user: T) => ({ ...user, totpEnabledAt: new Date() });
    const admin = enrolled(
      await db.prisma.user.create({
        data: { rut: "11111111-1", email: "a@a.cl", roleType: 0, passwordHash: "x", hasChangedPassword: true },
        select: sessionUserSelect,
      }),
    );
    const executive = enrolled(
      await db.prisma.user.create({
        data: {
          rut: "22222222-2",
          email: "e@e.cl",
          roleType: 1,
          passwordHash: "x",
          hasChangedPassword: true,
          privileges: {
            create: [
              { codeClinicStr: "hcs-rcr", idPermission: 1 },
              { codeClinicStr: "lircay-rcr", idPermission: 1 },
            ],
          },
        },
        select: sessionUserSelect,
      }),
    );
    const { patientRuts } = await load(deps);
    await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "Bill"`);
    await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "User"`);
    await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "BillFile"`);
    const loadSeconds = (performance.now() - t0) / 1000;
    console.log(
      `  ${kind}: ${BILLS.toLocaleString("es-CL")} cuentas de ${PATIENTS.toLocaleString("es-CL")} pacientes en ${loadSeconds.toFixed(1)} s`,
    );

    const meta = { ip: "127.0.0.1" };
    const random = generator(7);
    const patientSorts = ["createAccountIdDate", "amount", "isPaid"] as const;
    const staffSorts = ["accountCode", "createAccountIdDate", "amount", "rut", "firstName", "isPaid"] as const;
    const dirs = ["ASC", "DESC"] as const;

    const patientSamples: number[] = [];
    const patients = await Promise.all(
      Array.from({ length: 5 }, () =>
        db.prisma.user.findUniqueOrThrow({ where: { rut: patientRuts[random(patientRuts.length)]! }, select: sessionUserSelect }),
      ),
    );
    for (let i = 0; i < 5; i++) await listPatientBills(deps, patients[0]!, { rut: patients[0]!.rut }, meta); // warm-up
    for (let i = 0; i < 60; i++) {
      const patient: SessionUser = patients[i % patients.length]!;
      const input = { rut: patient.rut, orderBy: patientSorts[i % 3], direction: dirs[(i >> 1) % 2], page: "1", limit: "10" };
      await time(patientSamples, async () => {
        const page = await listPatientBills(deps, patient, input, meta);
        if (page.total === 0) throw new Error("El paciente del benchmark no tiene cuentas");
      });
    }

    const staffSamples = new Map<string, number[]>();
    const terms = () => {
      const rut = patientRuts[random(patientRuts.length)]!;
      return ["", "", String(1_000_000 + random(BILLS)).slice(0, 5), rut.slice(0, 6), surnames[random(surnames.length)]!];
    };
    for (let i = 0; i < 5; i++) await listStaffBills(deps, admin, {}, meta); // warm-up
    for (let i = 0; i < 60; i++) {
      const actor = i % 2 === 0 ? admin : executive;
      const param = terms()[i % 5]!;
      const input = { param, orderBy: staffSorts[i % 6], direction: dirs[(i >> 2) % 2], page: String(1 + (i % 3)), limit: "10" };
      const label = `orden ${input.orderBy}`;
      const samples = staffSamples.get(label) ?? [];
      staffSamples.set(label, samples);
      await time(samples, () => listStaffBills(deps, actor, input, meta));
    }
    const pgBudget = kind === "postgresql";
    const all = [...staffSamples.values()].flat();
    return [
      summarize(BENCH, `página del paciente, 3 órdenes × 2 direcciones (${kind})`, patientSamples, pgBudget ? 75 : 225),
      ...[...staffSamples].map(([name, samples]) => summarize(BENCH, `personal: ${name}`, samples)),
      summarize(
        BENCH,
        `búsqueda del personal, 6 órdenes (${kind}, 100k cuentas)`,
        all,
        pgBudget ? 200 : 600,
        `carga ${loadSeconds.toFixed(0)} s`,
      ),
    ];
  } finally {
    await drop();
  }
}
