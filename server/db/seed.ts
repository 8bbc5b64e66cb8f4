import type { AppConfig } from "../config.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { clinics } from "../contract/clinics.ts";
import { Role } from "../contract/roles.ts";
import { normalizeRut, rutCheckDigit } from "../contract/rut.ts";
import { seedDemoBills } from "./seed-bills.ts";
import { seedDemoCaregivers } from "./seed-caregivers.ts";
import { createUser, setSecondFactor } from "./users.repository.ts";
import { dayToDate } from "../contract/days.ts";

interface DemoAccount {
  rut: string;
  password: string;
  roleType: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  secondLastName: string | null;
  phoneNumber: string | null;
  birthDate: string | null;
  hasChangedPassword: boolean;
  termsAccepted: boolean;
  /** Staff: clinic privileges. */
  clinics?: string[];
  /** Patients: clinics they are registered with. */
  patientClinics?: string[];
  /** Staff: a fixed development TOTP secret (base32, in the README), so the demo accounts start enrolled (issue 27). */
  totpSecret?: string;
}

/** The demo staff's second-factor secrets (development only; production seeds no account). */
export const demoTotpSecrets = {
  admin: "PORTALADMINDEMOTOTPSECRETKEYAAAA",
  executive: "PORTALEJECUTIVODEMOTOTPSECRETAAA",
} as const;

/** The demo accounts of the README; other checks and the browser tests rely on them. */
export const demoAccounts: DemoAccount[] = [
  {
    rut: "11.111.111-1",
    password: "Admin2026",
    roleType: Role.admin,
    email: "admin@portalpacientes.cl",
    firstName: "Ana",
    lastName: "Administradora",
    secondLastName: "Demo",
    phoneNumber: "+56911111111",
    birthDate: "1980-01-15",
    hasChangedPassword: true,
    termsAccepted: true,
    totpSecret: demoTotpSecrets.admin,
  },
  {
    rut: "22.222.222-2",
    password: "Ejecutivo2026",
    roleType: Role.executive,
    email: "ejecutivo@portalpacientes.cl",
    firstName: "Ernesto",
    lastName: "Ejecutivo",
    secondLastName: "Demo",
    phoneNumber: "+56922222222",
    birthDate: "1985-05-20",
    hasChangedPassword: true,
    termsAccepted: true,
    clinics: ["hcs-rcr", "maitenes"],
    totpSecret: demoTotpSecrets.executive,
  },
  {
    rut: "12.345.678-5",
    password: "Paciente2026",
    roleType: Role.patient,
    email: "paciente@portalpacientes.cl",
    firstName: "María",
    lastName: "González",
    secondLastName: "Pérez",
    phoneNumber: "+56912345678",
    birthDate: "1975-03-10",
    hasChangedPassword: true,
    termsAccepted: true,
    patientClinics: ["hcs-rcr", "maitenes"],
  },
  {
    rut: "15.555.555-6",
    password: "Temporal2026",
    roleType: Role.patient,
    email: "primer.ingreso@portalpacientes.cl",
    firstName: null,
    lastName: null,
    secondLastName: null,
    phoneNumber: null,
    birthDate: null,
    hasChangedPassword: false,
    termsAccepted: false,
    patientClinics: ["maitenes"],
  },
  {
    rut: "16.789.012-1",
    password: "Paciente2026",
    roleType: Role.patient,
    email: "incompleto@portalpacientes.cl",
    firstName: "Pedro",
    lastName: "Soto",
    secondLastName: null,
    phoneNumber: null,
    birthDate: null,
    hasChangedPassword: true,
    termsAccepted: true,
    patientClinics: ["hcs-rcr"],
  },
];

const extraFirstNames = [
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
];
const extraLastNames = [
  "Muñoz",
  "Rojas",
  "Díaz",
  "Contreras",
  "Silva",
  "Martínez",
  "Sepúlveda",
  "Morales",
  "Fuentes",
  "Araya",
  "Torres",
  "Espinoza",
];

/** Twenty-four more complete patients so the staff list pages and searches have something to show. */
function extraPatients(): DemoAccount[] {
  return Array.from({ length: 24 }, (_, i) => {
    const body = String(17_000_000 + i * 104_729);
    return {
      rut: `${body}-${rutCheckDigit(body)}`,
      password: "Paciente2026",
      roleType: Role.patient,
      email: `paciente${i + 1}@correo.cl`,
      firstName: extraFirstNames[i % extraFirstNames.length]!,
      lastName: extraLastNames[i % extraLastNames.length]!,
      secondLastName: extraLastNames[(i + 5) % extraLastNames.length]!,
      phoneNumber: `+5699${String(1_000_000 + i * 7_919).slice(0, 7)}`,
      birthDate: `19${60 + (i % 40)}-0${1 + (i % 9)}-1${i % 9}`,
      hasChangedPassword: true,
      termsAccepted: true,
      patientClinics: [clinics[i % clinics.length]!.key],
    };
  });
}

/** Keeps the clinic table equal to the catalogue. */
export async function seedClinics(prisma: PrismaClient): Promise<void> {
  for (const clinic of clinics) {
    await prisma.clinic.upsert({
      where: { code: clinic.code },
      create: { code: clinic.code, codeClinicStr: clinic.key, title: clinic.title },
      update: { codeClinicStr: clinic.key, title: clinic.title },
    });
  }
}

/**
 * Idempotent demo data: clinics always; accounts are created when missing (existing ones are left as they are).
 * With onlyWhenEmpty, accounts are added only to a database without users (start-up on a fresh database).
 */
/**
 * Demo accounts have published passwords: only development adds them by default (SEED_DEMO=false turns that off);
 * production and tests only when SEED_DEMO=true says so explicitly.
 */
export function wantsDemoData(config: Pick<AppConfig, "NODE_ENV" | "SEED_DEMO">): boolean {
  return config.SEED_DEMO ?? config.NODE_ENV === "development";
}

/** Start-up: the clinic catalogue always; the demo accounts on an empty database only where wanted. */
export async function seedAtStartup(prisma: PrismaClient, config: AppConfig): Promise<{ created: number }> {
  if (!wantsDemoData(config)) {
    await seedClinics(prisma);
    return { created: 0 };
  }
  return seedDemoData(prisma, { onlyWhenEmpty: true });
}

export async function seedDemoData(prisma: PrismaClient, options: { onlyWhenEmpty: boolean }): Promise<{ created: number }> {
  await seedClinics(prisma);
  if (options.onlyWhenEmpty && (await prisma.user.count()) > 0) return { created: 0 };
  let created = 0;
  for (const account of [...demoAccounts, ...extraPatients()]) {
    const rut = normalizeRut(account.rut);
    if (await prisma.user.findUnique({ where: { rut }, select: { id: true } })) continue;
    await createUser(
      prisma,
      {
        rut,
        email: account.email,
        roleType: account.roleType,
        firstName: account.firstName,
        lastName: account.lastName,
        secondLastName: account.secondLastName,
        phoneNumber: account.phoneNumber,
        birthDate: account.birthDate ? dayToDate(account.birthDate) : null,
        password: account.password,
        state: { hasChangedPassword: account.hasChangedPassword, dateTyc: account.termsAccepted ? new Date("2026-01-05T12:00:00Z") : null },
        privileges: account.clinics,
        patientClinics: account.patientClinics,
      },
      { id: true },
    ).then(async (user) => {
      if ("totpSecret" in account && account.totpSecret)
        await setSecondFactor(prisma, user.id, { totpSecret: account.totpSecret, totpEnabledAt: new Date("2026-01-05T12:00:00Z") });
    });
    created++;
  }
  await seedDemoCaregivers(prisma);
  await seedDemoBills(prisma);
  return { created };
}
