import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { Role } from "../../../server/contract/roles.ts";
import { normalizeRut } from "../../../server/contract/rut.ts";
import { createUser, setSecondFactor } from "../../../server/db/users.repository.ts";
import { demoTotpSecrets } from "../../../server/db/seed.ts";
import { rutOf } from "../../helpers/fixtures.ts";

// Each Playwright worker signs in as staff accounts of its own (issue 46 §5): an admin and an executive enrolled in the
// second factor with secrets of their own. The portal takes each account's codes once and in order, one 30-s step at a
// time, so workers sharing the demo admin queued for steps (199 s of one run). Seeded by the browser tests' server
// (support/e2e-server.ts) next to the demo data; the demo accounts themselves stay as the README describes them.

/**
 * Workers with accounts of their own (Playwright's TEST_PARALLEL_INDEX 0..n-1): the config's 3. Kept to that: the staff
 * user list shows the newest accounts first, and users-admin.spec.ts finds the demo staff on the first page (10 rows) of
 * each role (with 3 slots, 3 workers' executives and the ≤ 4 the specs create are newer than the demo executive). A run
 * with more workers (--workers) gives the workers past these the demo staff, shared as before.
 */
const STAFF_WORKER_SLOTS = 3;
/** RUT bodies 39.500.000 and up: outside the seed's and the other specs' ranges (users-helpers.ts, accounts.ts). */
const RUT_BASE = 39_500_000;

interface StaffAccount {
  rut: string;
  password: string;
  /** The base32 TOTP secret its authenticator app would hold. */
  secret: string;
}

function secretFor(role: "ADMIN" | "EJECUTIVO", slot: number): string {
  // Base32 letters only; the worker's slot as a letter, so every secret differs.
  return `PORTALEEE${role}W${"ABCDEFGHIJ"[slot]}`.padEnd(32, "Q");
}

const demoStaff = {
  admin: { rut: "11.111.111-1", password: "Admin2026", secret: demoTotpSecrets.admin },
  executive: { rut: "22.222.222-2", password: "Ejecutivo2026", secret: demoTotpSecrets.executive },
};

/** The admin and executive of one worker slot (the demo staff past the slots seeded). */
function workerStaff(slot: number): { admin: StaffAccount; executive: StaffAccount } {
  if (!Number.isInteger(slot) || slot < 0 || slot >= STAFF_WORKER_SLOTS) return demoStaff;
  return {
    admin: { rut: rutOf(RUT_BASE + slot * 10), password: `AdminW${slot}2026`, secret: secretFor("ADMIN", slot) },
    executive: { rut: rutOf(RUT_BASE + slot * 10 + 1), password: `EjecutivoW${slot}2026`, secret: secretFor("EJECUTIVO", slot) },
  };
}

/** This worker's slot; 0 outside a worker (the config, the server). */
function currentWorkerSlot(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

/** The staff accounts of the running worker. */
export const currentWorkerStaff = (): { admin: StaffAccount; executive: StaffAccount } => workerStaff(currentWorkerSlot());

/** Every worker slot's secrets by normalized RUT. */
export function workerStaffSecrets(): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (let slot = 0; slot < STAFF_WORKER_SLOTS; slot++) {
    const { admin, executive } = workerStaff(slot);
    secrets[normalizeRut(admin.rut)] = admin.secret;
    secrets[normalizeRut(executive.rut)] = executive.secret;
  }
  return secrets;
}

/** Creates every slot's admin and executive, enrolled, as the demo staff are (the executive with the demo's clinics). */
export async function seedWorkerStaff(prisma: PrismaClient): Promise<void> {
  for (let slot = 0; slot < STAFF_WORKER_SLOTS; slot++) {
    const { admin, executive } = workerStaff(slot);
    const letter = "ABCDEFGHIJ"[slot];
    for (const [account, roleType, clinics, name] of [
      [admin, Role.admin, undefined, "Administradora"],
      [executive, Role.executive, ["hcs-rcr", "maitenes"], "Ejecutivo"],
    ] as const) {
      const user = await createUser(
        prisma,
        {
          rut: normalizeRut(account.rut),
          email: `e2e.${name.toLowerCase()}.w${slot}@correo.cl`,
          roleType,
          firstName: "Prueba",
          lastName: name,
          secondLastName: `Trabajador${letter}`,
          phoneNumber: `+5699950${String(slot).padStart(2, "0")}${roleType}0`,
          birthDate: new Date("1980-01-15T00:00:00Z"),
          password: account.password,
          state: { hasChangedPassword: true, dateTyc: new Date("2026-01-05T12:00:00Z") },
          privileges: clinics ? [...clinics] : undefined,
        },
        { id: true },
      );
      await setSecondFactor(prisma, user.id, { totpSecret: account.secret, totpEnabledAt: new Date("2026-01-05T12:00:00Z") });
    }
  }
}
