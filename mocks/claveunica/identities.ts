// Demo identities of the ClaveÚnica mock (README, 'Cuentas de demostración'). Every one uses the password below.

export const CLAVEUNICA_DEMO_PASSWORD = "ClaveUnica2026";

export interface ClaveUnicaIdentity {
  /** ClaveÚnica's subject: stable per person, not the RUN. */
  sub: string;
  RolUnico: { numero: number; DV: string; tipo: "RUN" };
  name: { nombres: string[]; apellidos: string[] };
  email: string;
}

export const claveUnicaIdentities: ClaveUnicaIdentity[] = [
  {
    sub: "cu-12345678",
    RolUnico: { numero: 12345678, DV: "5", tipo: "RUN" },
    name: { nombres: ["María"], apellidos: ["González", "Pérez"] },
    email: "paciente@portalpacientes.cl",
  },
  {
    sub: "cu-15555555",
    RolUnico: { numero: 15555555, DV: "6", tipo: "RUN" },
    name: { nombres: ["Carolina", "Andrea"], apellidos: ["Fuentes", "Lagos"] },
    email: "carolina.fuentes@correo.cl",
  },
  {
    // A person with no account in the portal.
    sub: "cu-9876543",
    RolUnico: { numero: 9876543, DV: "3", tipo: "RUN" },
    name: { nombres: ["Jorge"], apellidos: ["Vidal", "Reyes"] },
    email: "jorge.vidal@correo.cl",
  },
  {
    // The demo administrator: staff never sign in to the portal this way.
    sub: "cu-11111111",
    RolUnico: { numero: 11111111, DV: "1", tipo: "RUN" },
    name: { nombres: ["Ana"], apellidos: ["Administradora", "Demo"] },
    email: "admin@portalpacientes.cl",
  },
];

/** "12.345.678-5", "12345678-5" or "123456785" → the identity with that RUN, if any. */
export function identityByRun(
  run: string,
  identities: readonly ClaveUnicaIdentity[] = claveUnicaIdentities,
): ClaveUnicaIdentity | undefined {
  const compact = run.replace(/[.\s-]/g, "").toUpperCase();
  return identities.find((identity) => `${identity.RolUnico.numero}${identity.RolUnico.DV}` === compact);
}

export function identityBySub(
  sub: string,
  identities: readonly ClaveUnicaIdentity[] = claveUnicaIdentities,
): ClaveUnicaIdentity | undefined {
  return identities.find((identity) => identity.sub === sub);
}
