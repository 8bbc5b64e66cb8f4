import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { dayToDate } from "../../../server/contract/days.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Issue 45 §1 in the browser: patients whose bills fall on days a time zone would shift (the first of a year, the
// 8th of December of the report), one per browser test (the export allows one request an hour).

export const exportDatesBills = [
  { accountCode: "451001", day: "2025-12-08" },
  { accountCode: "451002", day: "2025-01-01" },
  { accountCode: "451003", day: "2024-06-30" },
] as const;

export const exportDatesPatients = [
  { rutBody: "23451001", rut: rutOf("23451001"), password: "Paciente2026" },
  { rutBody: "23451002", rut: rutOf("23451002"), password: "Paciente2026" },
] as const;

export async function seedExportDatesFixtures(prisma: PrismaClient): Promise<void> {
  for (const [index, patient] of exportDatesPatients.entries()) {
    const user = await prisma.user.create({
      data: {
        rut: plainRutOf(patient.rutBody),
        email: `fechas.${index + 1}.e2e@correo.cl`,
        firstName: "Inés",
        lastName: "Fechas",
        secondLastName: "Prueba",
        phoneNumber: "+56911115555",
        birthDate: dayToDate("1985-02-14"),
        roleType: 2,
        passwordHash: await hashPassword(patient.password),
        hasChangedPassword: true,
        dateTyc: new Date("2026-01-05T12:00:00Z"),
        patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
      },
    });
    for (const bill of exportDatesBills)
      await prisma.bill.create({
        data: {
          accountCode: `${bill.accountCode}${index}`,
          createAccountIdDate: dayToDate(bill.day),
          amount: 45_990,
          userId: user.id,
          clinicCode: "hcs-rcr",
        },
      });
  }
}
