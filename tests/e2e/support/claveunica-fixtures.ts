import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
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

export async function seedClaveUnicaFixtures(prisma: PrismaClient): Promise<void> {
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
