import { formatRut, rutCheckDigit } from "../../server/contract/rut.ts";
import type { PrismaClient } from "../../server/generated/prisma/client.ts";
import { userSearchText } from "../../server/contract/users.dto.ts";
import { hashPassword } from "../../server/lib/passwords.ts";

/** A valid RUT (display form, with dots) for a numeric body. */
export function rutOf(body: number): string {
  return formatRut(`${body}-${rutCheckDigit(String(body))}`);
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

/** Inserts a user straight into the database (terms accepted, password changed) and returns its id. */
export async function insertUser(prisma: PrismaClient, user: FixtureUser): Promise<number> {
  const rut = user.rut.replace(/\./g, "").toUpperCase();
  const names = {
    firstName: user.firstName ?? null,
    secondName: null,
    lastName: user.lastName ?? null,
    secondLastName: user.secondLastName ?? null,
  };
  const row = await prisma.user.create({
    data: {
      rut,
      email: user.email,
      roleType: user.roleType,
      ...names,
      passwordHash: user.password ? await hashPassword(user.password) : "sin-contraseña",
      hasChangedPassword: true,
      dateTyc: new Date("2026-01-05T12:00:00Z"),
      searchText: userSearchText({ rut, email: user.email, ...names }),
      privileges: user.clinics ? { create: user.clinics.map((codeClinicStr) => ({ codeClinicStr, idPermission: 1 })) } : undefined,
      patientClinics: user.patientClinics ? { create: user.patientClinics.map((codeClinicStr) => ({ codeClinicStr })) } : undefined,
    },
    select: { id: true },
  });
  return row.id;
}

export async function userIdByRut(prisma: PrismaClient, rut: string): Promise<number> {
  const row = await prisma.user.findUniqueOrThrow({ where: { rut: rut.replace(/\./g, "").toUpperCase() }, select: { id: true } });
  return row.id;
}
