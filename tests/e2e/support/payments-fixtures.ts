import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { createBill, plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// A patient of the South clinic with unpaid bills, written through Prisma by the e2e server at start-up (the browser
// specs share one database; each payment spec pays its own bill).

const rutBody = "19876543";
export const paymentsPatient = {
  rut: rutOf(rutBody),
  password: "PagosE2e2026",
} as const;

/** Bills by account code; each spec uses its own. */
export const paymentBills = {
  approvedVisa: { accountCode: "710001", amount: 45_990 },
  rejectedMastercard: { accountCode: "710002", amount: 12_000 },
  aborted: { accountCode: "710003", amount: 8_500 },
  twoTabsDesktop: { accountCode: "710004", amount: 21_839 },
  twoTabsPhone: { accountCode: "710005", amount: 21_840 },
  inProgressDesktop: { accountCode: "710006", amount: 9_990 },
  inProgressPhone: { accountCode: "710007", amount: 9_991 },
  keyboardJourney: { accountCode: "710008", amount: 15_500 },
} as const;

export async function seedPaymentFixtures(prisma: PrismaClient): Promise<void> {
  const user = await prisma.user.create({
    data: {
      rut: plainRutOf(rutBody),
      email: "pagos.e2e@correo.cl",
      firstName: "Pamela",
      lastName: "Pagos",
      secondLastName: "Prueba",
      phoneNumber: "+56911112222",
      birthDate: new Date("1980-01-01T00:00:00Z"),
      roleType: 2,
      passwordHash: await hashPassword(paymentsPatient.password),
      hasChangedPassword: true,
      dateTyc: new Date("2026-01-05T12:00:00Z"),
      patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
    },
  });
  for (const bill of Object.values(paymentBills)) {
    await createBill(prisma, user.rut, { accountCode: bill.accountCode, amount: bill.amount, day: "2026-02-01" });
  }
}
