import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { AUDIT_ACTIONS } from "../../../server/contract/audit.schemas.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { plainRutOf, rutOf } from "../../helpers/fixtures.ts";

// Issue 45 §10: one audit row for every action the server can write (AUDIT_ACTIONS, held equal to the AuditAction type
// in server/lib/audit.ts), on one day of its own long before the demo data, so the browser test reads each action's
// label in the 'Auditoría' table by filtering that day. No actor and no patient: they show in no one's 'Accesos a mis
// datos' and in no other test's filter by RUT.

/** The day (Chile's calendar) that holds exactly one row per action. */
export const everyActionDay = "2020-01-15";

export async function seedEveryAuditAction(prisma: PrismaClient): Promise<void> {
  await prisma.auditEvent.createMany({
    data: AUDIT_ACTIONS.map((action, index) => ({
      action,
      resource: "audit",
      outcome: "ok",
      createdAt: new Date(Date.parse(`${everyActionDay}T15:00:00Z`) + index * 1000),
    })),
  });
}

/**
 * Issue 45 §8: a patient whose 'Accesos a mis datos' is mostly their own reads, in bursts of ten a minute apart, between
 * which staff and the clinic's systems reached their data 45 times (three pages of others' accesses).
 */
export const busyLogPatient = { rut: rutOf("21357913"), password: "Paciente2026" } as const;

export async function seedBusyAccessLog(prisma: PrismaClient): Promise<void> {
  const admin = await prisma.user.findFirstOrThrow({ where: { roleType: 0 }, select: { id: true } });
  const executive = await prisma.user.findFirstOrThrow({ where: { roleType: 1 }, select: { id: true } });
  const patient = await prisma.user.create({
    data: {
      rut: plainRutOf("21357913"),
      email: "muchos.accesos.e2e@correo.cl",
      firstName: "Rosa",
      lastName: "Accesos",
      secondLastName: "Prueba",
      phoneNumber: "+56911115555",
      birthDate: new Date("1970-03-04T00:00:00Z"),
      roleType: 2,
      passwordHash: await hashPassword(busyLogPatient.password),
      hasChangedPassword: true,
      dateTyc: new Date("2026-01-05T12:00:00Z"),
      patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
    },
  });
  const others = [
    { actorId: admin.id, actorRole: 0, action: "user.read", resource: "user" },
    { actorId: executive.id, actorRole: 1, action: "bill.read", resource: "bill" },
    { actorId: null, actorRole: null, action: "payment.reconcile", resource: "PaymentTransaction" },
  ];
  const start = Date.now() - 3 * 86_400_000;
  const rows = [];
  for (let burst = 0; burst < 45; burst++) {
    const at = start + burst * 30 * 60_000;
    rows.push({ ...others[burst % 3]!, patientId: patient.id, createdAt: new Date(at) });
    for (let read = 1; read <= 10; read++) {
      rows.push({
        actorId: patient.id,
        actorRole: 2,
        action: "bill.list",
        resource: "bill",
        patientId: patient.id,
        createdAt: new Date(at + read * 60_000),
      });
    }
  }
  await prisma.auditEvent.createMany({ data: rows });
}
