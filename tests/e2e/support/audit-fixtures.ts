import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { AUDIT_ACTIONS } from "../../../server/contract/audit.schemas.ts";

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
