import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { dayToDate } from "../../../server/contract/days.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Issue 45 §3, §4 and §5 in the browser: patients with no request yet, one per test and width, for 'Solicitudes' after
// sending and for a rectification resolved by staff (which changes their RUT), one whose session ends elsewhere and one
// who ends their other sessions.

const patient = (rutBody: string) => ({ rutBody, rut: rutOf(rutBody), password: "Paciente2026" }) as const;

export const requestsPatients = { phone: patient("23452001"), desktop: patient("23452002") } as const;
export const rectificationPatients = { phone: patient("23452003"), desktop: patient("23452004") } as const;
/** Issue 45 §3's patient, of its own: the rectification spec changes the RUT of rectificationPatients. */
export const sessionEndedPatient = patient("23452005");
/** Issue 45's low list: 'Sesiones activas' ends this patient's other sessions, so no other spec signs in as them. */
export const sessionsPatient = patient("23452006");

export async function seedRightsRequestsFixtures(prisma: PrismaClient): Promise<void> {
  const all = [...Object.values(requestsPatients), ...Object.values(rectificationPatients), sessionEndedPatient, sessionsPatient];
  for (const [index, { rutBody, password }] of all.entries()) {
    await prisma.user.create({
      data: {
        rut: plainRutOf(rutBody),
        email: `solicitudes.${index + 1}.e2e@correo.cl`,
        firstName: "Rosa",
        lastName: "Solicitud",
        secondLastName: "Prueba",
        phoneNumber: "+56911116666",
        birthDate: dayToDate("1979-03-21"),
        roleType: 2,
        passwordHash: await hashPassword(password),
        hasChangedPassword: true,
        dateTyc: new Date("2026-01-05T12:00:00Z"),
        patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
      },
    });
  }
}
