import { formatRut, rutCheckDigit } from "../../server/contract/rut.ts";
import { dayToDate } from "../../server/contract/days.ts";
import type { PrismaClient } from "../../server/generated/prisma/client.ts";
import { createUser, setSecondFactor } from "../../server/db/users.repository.ts";
import { Role } from "../../server/contract/roles.ts";
import { fixtureTotpSecret } from "./second-factor.ts";

// The one fixture module of the API and browser tests: RUTs, users and bills, written straight through Prisma.

/** A valid RUT as stored (no dots, e.g. "17000000-K") for a numeric body. */
export function plainRutOf(body: number | string): string {
  return `${body}-${rutCheckDigit(String(body))}`;
}

/** A valid RUT (display form, with dots) for a numeric body. */
export function rutOf(body: number | string): string {
  return formatRut(plainRutOf(body));
}

export interface FixtureUser {
  rut: string;
  email: string;
  roleType: number;
  password?: string;
  firstName?: string | null;
  lastName?: string | null;
  secondLastName?: string | null;
  /** Executive privileges (clinic keys). */
  clinics?: string[];
  /** Clinics a patient is registered with. */
  patientClinics?: string[];
}

/**
 * Inserts a user straight into the database (terms accepted, password changed; staff with their second factor set
 * up with fixtureTotpSecret, which the test context's login uses) and returns its id.
 */
export async function insertUser(prisma: PrismaClient, user: FixtureUser): Promise<number> {
  const rut = user.rut.replace(/\./g, "").toUpperCase();
  const row = await createUser(
    prisma,
    {
      rut,
      email: user.email,
      roleType: user.roleType,
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      secondLastName: user.secondLastName ?? null,
      ...(user.password ? { password: user.password } : { passwordHash: "sin-contraseña" }),
      state: { hasChangedPassword: true, dateTyc: new Date("2026-01-05T12:00:00Z") },
      privileges: user.clinics,
      patientClinics: user.patientClinics,
    },
    { id: true },
  );
  if (user.roleType !== Role.patient) await setSecondFactor(prisma, row.id, { totpSecret: fixtureTotpSecret, totpEnabledAt: new Date() });
  return row.id;
}

/** A patient named `firstName` Prueba, registered with one clinic, e-mail `<firstname>@correo.cl`, password Paciente2026. */
export function insertPatient(prisma: PrismaClient, body: number, firstName: string, clinic: string): Promise<number> {
  return insertUser(prisma, {
    rut: plainRutOf(body),
    email: `${firstName.toLowerCase()}@correo.cl`,
    roleType: Role.patient,
    password: "Paciente2026",
    firstName,
    lastName: "Prueba",
    patientClinics: [clinic],
  });
}

export async function userIdByRut(prisma: PrismaClient, rut: string): Promise<number> {
  const row = await prisma.user.findUniqueOrThrow({ where: { rut: rut.replace(/\./g, "").toUpperCase() }, select: { id: true } });
  return row.id;
}

let nextAccountCode = 900_000;

/** A bill of the patient with that RUT (stored form), with a fresh account code unless one is given. */
export async function createBill(
  prisma: PrismaClient,
  rut: string,
  fields: { amount?: number; isPaid?: boolean; clinicCode?: string; accountCode?: string; day?: string } = {},
) {
  const user = await prisma.user.findUniqueOrThrow({ where: { rut } });
  nextAccountCode += 1;
  return prisma.bill.create({
    data: {
      accountCode: fields.accountCode ?? String(nextAccountCode),
      createAccountIdDate: dayToDate(fields.day ?? "2026-02-10"),
      amount: fields.amount ?? 45_990,
      userId: user.id,
      clinicCode: fields.clinicCode ?? "hcs-rcr",
      isPaid: fields.isPaid ?? false,
    },
  });
}
