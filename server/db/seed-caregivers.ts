import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { Role } from "../contract/roles.ts";
import { normalizeRut } from "../contract/rut.ts";
import { CAREGIVER_LINK_MAX_YEARS } from "../contract/caregivers.ts";
import { addYears, dayToDate } from "../contract/days.ts";
import { chileToday } from "../lib/chile-time.ts";
import { createUser } from "./users.repository.ts";

// Demo caregivers (issue 30, demo data only): the demo patient María González (12.345.678-5) cares, at Hospital Clínico
// del Sur, for her son Tomás (a minor without an account of his own) and her father José (an adult with his own
// account, who can see and revoke her link in 'Mi cuenta').

export const demoDependents = {
  minor: { rut: "24.567.890-8", firstName: "Tomás", birthDate: "2014-06-12" },
  adult: { rut: "6.543.210-2", firstName: "José", password: "Paciente2026", birthDate: "1948-09-02" },
} as const;

const caregiverRut = "12.345.678-5";
const adminRut = "11.111.111-1";

/** Adds the two dependents and their links when missing (idempotent). */
export async function seedDemoCaregivers(prisma: PrismaClient): Promise<void> {
  const idOf = async (rut: string) => (await prisma.user.findUnique({ where: { rut: normalizeRut(rut) }, select: { id: true } }))?.id;
  const caregiverId = await idOf(caregiverRut);
  const adminId = await idOf(adminRut);
  if (!caregiverId || !adminId) return;

  let minorId = await idOf(demoDependents.minor.rut);
  if (!minorId) {
    // No account of his own: a patient row whose password nobody knows, never signed in; the clinic can later send
    // him (or his guardian) a reset link to open one.
    minorId = (
      await createUser(
        prisma,
        {
          rut: normalizeRut(demoDependents.minor.rut),
          email: "paciente@portalpacientes.cl",
          roleType: Role.patient,
          firstName: demoDependents.minor.firstName,
          lastName: "González",
          secondLastName: "Pérez",
          phoneNumber: null,
          birthDate: dayToDate(demoDependents.minor.birthDate),
          password: randomBytes(24).toString("base64url"),
          state: { hasChangedPassword: false, dateTyc: null },
          patientClinics: ["hcs-rcr"],
        },
        { id: true },
      )
    ).id;
    await prisma.caregiverLink.create({
      data: {
        caregiverId,
        dependentId: minorId,
        relationship: "madre",
        documentSeen: "Certificado de nacimiento",
        minorUntil: dayToDate("2032-06-12"),
        expiresOn: dayToDate("2032-06-12"),
        parts: ["agendamiento", "resultados", "cuentas-pagos"],
        createdById: adminId,
      },
    });
  }

  if (!(await idOf(demoDependents.adult.rut))) {
    const adult = await createUser(
      prisma,
      {
        rut: normalizeRut(demoDependents.adult.rut),
        email: "jose.gonzalez@correo.cl",
        roleType: Role.patient,
        firstName: demoDependents.adult.firstName,
        lastName: "González",
        secondLastName: "Rojas",
        phoneNumber: "+56976543210",
        birthDate: dayToDate(demoDependents.adult.birthDate),
        password: demoDependents.adult.password,
        state: { hasChangedPassword: true, dateTyc: new Date("2026-01-05T12:00:00Z") },
        patientClinics: ["hcs-rcr"],
      },
      { id: true },
    );
    await prisma.caregiverLink.create({
      data: {
        caregiverId,
        dependentId: adult.id,
        relationship: "otro",
        documentSeen: "Poder simple firmado ante la clínica",
        // As long as the rule lets an adult's link last: a year from the day the demo is seeded (renewable).
        expiresOn: dayToDate(addYears(chileToday(), CAREGIVER_LINK_MAX_YEARS)),
        parts: ["agendamiento", "resultados"],
        createdById: adminId,
      },
    });
  }
}
