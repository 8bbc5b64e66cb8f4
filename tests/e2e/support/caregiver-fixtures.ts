import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { dayToDate } from "../../../server/contract/days.ts";
import { chileToday } from "../../../server/lib/chile-time.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Issue 30's expiry in the browser: a caregiver whose only link ended yesterday (Chile's calendar), so a choice of
// 'Ver como:' made while it was live no longer reaches the dependent's data.

export const expiredCaregiver = { rut: rutOf("19876444"), password: "Cuidadora2026" } as const;
/** A fixed id, so the browser test can store the choice as a tab would have while the link was live. */
export const expiredDependent = { id: 900_001, rutBody: "23456111", rut: rutOf("23456111"), name: "Pedro Vencido Prueba" } as const;

export async function seedCaregiverFixtures(prisma: PrismaClient): Promise<void> {
  const adminId = (await prisma.user.findFirstOrThrow({ where: { roleType: 0 }, select: { id: true } })).id;
  const clinic = { patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] } };
  const caregiver = await prisma.user.create({
    data: {
      rut: plainRutOf("19876444"),
      email: "cuidadora.vencida.e2e@correo.cl",
      firstName: "Elena",
      lastName: "Cuidadora",
      secondLastName: "Prueba",
      phoneNumber: "+56911114444",
      birthDate: new Date("1975-05-06T00:00:00Z"),
      roleType: 2,
      passwordHash: await hashPassword(expiredCaregiver.password),
      hasChangedPassword: true,
      dateTyc: new Date("2026-01-05T12:00:00Z"),
      ...clinic,
    },
  });
  const dependent = await prisma.user.create({
    data: {
      id: expiredDependent.id,
      rut: plainRutOf(expiredDependent.rutBody),
      email: "",
      firstName: "Pedro",
      lastName: "Vencido",
      secondLastName: "Prueba",
      roleType: 2,
      passwordHash: await hashPassword(`sin-cuenta-${Date.now()}`),
      ...clinic,
    },
  });
  const yesterday = new Date(dayToDate(chileToday()).getTime() - 86_400_000);
  await prisma.caregiverLink.create({
    data: {
      caregiverId: caregiver.id,
      dependentId: dependent.id,
      relationship: "otro",
      documentSeen: "Poder simple firmado ante la clínica",
      expiresOn: yesterday,
      parts: ["agendamiento", "resultados", "cuentas-pagos"],
      createdById: adminId,
    },
  });
}
