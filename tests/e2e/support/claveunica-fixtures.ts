import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { createUser, setSecondFactor } from "../../../server/db/users.repository.ts";
import { rutCheckDigit } from "../../../server/contract/rut.ts";
import type { ClaveUnicaIdentity } from "../../../mocks/claveunica/identities.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Issue 43 in the browser: first-login patients of their own (one per screen width), so the ClaveÚnica journey does not
// change the seeded first-login patient that tests/e2e/account-first-login.spec.ts owns. The ClaveÚnica mock knows them
// (extraIdentities); the portal has them on a temporary password, without terms or names, with an e-mail of their own
// (which ClaveÚnica's must not replace).

const bodies = { 375: "23460375", 1280: "23461280" } as const;

export const claveUnicaFirstLogin = Object.fromEntries(
  Object.entries(bodies).map(([width, body]) => [width, { rut: rutOf(body), email: `propio.${body}@correo.cl` }]),
) as Record<keyof typeof bodies, { rut: string; email: string }>;

export const claveUnicaFirstLoginIdentities: ClaveUnicaIdentity[] = Object.values(bodies).map((body) => ({
  sub: `cu-${body}`,
  RolUnico: { numero: Number(body), DV: rutCheckDigit(body), tipo: "RUN" },
  name: { nombres: ["Valentina", "Isabel"], apellidos: ["Rojas", "Muñoz"] },
  email: `valentina.${body}@correo.cl`,
}));

// Patients with a second factor (one per width): ClaveÚnica asks them for their code before the portal opens.
const enrolledBodies = { 375: "23462375", 1280: "23463280" } as const;
/** The enrolled patients' TOTP secret (base32), for the test to compute the code an authenticator would show. */
export const claveUnicaEnrolledSecret = "CLAVEUNICAENROLLEDPATIENTSECRETA";
export const claveUnicaEnrolled = Object.fromEntries(
  Object.entries(enrolledBodies).map(([width, body]) => [width, { rut: rutOf(body) }]),
) as Record<keyof typeof enrolledBodies, { rut: string }>;

/** Every identity the ClaveÚnica mock must know beyond its own demo ones. */
export const claveUnicaFixtureIdentities: ClaveUnicaIdentity[] = [
  ...claveUnicaFirstLoginIdentities,
  ...Object.values(enrolledBodies).map((body) => ({
    sub: `cu-${body}`,
    RolUnico: { numero: Number(body), DV: rutCheckDigit(body), tipo: "RUN" as const },
    name: { nombres: ["Ignacio"], apellidos: ["Soto", "Vera"] },
    email: `ignacio.${body}@correo.cl`,
  })),
];

export async function seedClaveUnicaFixtures(prisma: PrismaClient): Promise<void> {
  for (const body of Object.values(enrolledBodies)) {
    const user = await createUser(
      prisma,
      {
        rut: plainRutOf(body),
        email: `ignacio.${body}@correo.cl`,
        roleType: 2,
        firstName: "Ignacio",
        lastName: "Soto",
        secondLastName: "Vera",
        phoneNumber: "+56991234567",
        birthDate: new Date("1985-03-02T00:00:00Z"),
        password: "Paciente2026",
        state: { hasChangedPassword: true, dateTyc: new Date("2026-01-05T12:00:00Z") },
        patientClinics: ["hcs-rcr"],
      },
      { id: true },
    );
    await setSecondFactor(prisma, user.id, { totpSecret: claveUnicaEnrolledSecret, totpEnabledAt: new Date("2026-01-05T12:00:00Z") });
  }
  for (const body of Object.values(bodies)) {
    await prisma.user.create({
      data: {
        rut: plainRutOf(body),
        email: `propio.${body}@correo.cl`,
        roleType: 2,
        passwordHash: await hashPassword("Temporal2026"),
        hasChangedPassword: false,
        patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
      },
    });
  }
}
