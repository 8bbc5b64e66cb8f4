import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Patients of the South clinic with no appointment at the agenda, for the 'Mis citas' journey (book in the frame →
// 'Mis citas' → calendar → cancel): one per screen width, so neither run sees what the other booked, and no other spec
// books for them.

const password = "CitasE2e2026";
export const journeyPatients = {
  375: { rutBody: "19876501", rut: rutOf("19876501"), email: "citas.telefono.e2e@correo.cl", password },
  1280: { rutBody: "19876502", rut: rutOf("19876502"), email: "citas.escritorio.e2e@correo.cl", password },
} as const;

/** A patient who books outside the portal (the clinic's page in another tab) and finds it with 'Actualizar'. */
export const refreshPatient = { rutBody: "19876503", rut: rutOf("19876503"), email: "citas.actualizar.e2e@correo.cl", password } as const;

export async function seedAppointmentsFixtures(prisma: PrismaClient): Promise<void> {
  const passwordHash = await hashPassword(password);
  for (const [index, patient] of [...Object.values(journeyPatients), refreshPatient].entries()) {
    await prisma.user.create({
      data: {
        rut: plainRutOf(patient.rutBody),
        email: patient.email,
        firstName: "Camila",
        lastName: ["Teléfono", "Escritorio", "Actualiza"][index]!,
        secondLastName: "Citas",
        phoneNumber: `+5691111550${index}`,
        birthDate: new Date("1988-03-14T00:00:00Z"),
        roleType: 2,
        passwordHash,
        hasChangedPassword: true,
        dateTyc: new Date("2026-01-05T12:00:00Z"),
        patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
      },
    });
  }
}
