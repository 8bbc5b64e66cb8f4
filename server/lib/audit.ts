import type { PrismaClient } from "../generated/prisma/client.ts";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace.ts";

export interface AuditEntry {
  actorId?: number | null;
  actorRole?: number | null;
  action: string;
  resource: string;
  resourceId?: string | number | null;
  patientId?: number | null;
  before?: unknown;
  after?: unknown;
  outcome?: "ok" | "denied" | "failed";
  ip?: string | null;
}

const toJson = (value: unknown) =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as InputJsonValue);

/** Writes one audit row (HIPAA 164.312(b)-style trail: who, what, before/after, when, outcome). */
export async function recordAudit(prisma: Pick<PrismaClient, "auditEvent">, entry: AuditEntry): Promise<void> {
  await prisma.auditEvent.create({
    data: {
      actorId: entry.actorId ?? null,
      actorRole: entry.actorRole ?? null,
      action: entry.action,
      resource: entry.resource,
      resourceId: entry.resourceId === undefined || entry.resourceId === null ? null : String(entry.resourceId),
      patientId: entry.patientId ?? null,
      before: toJson(entry.before),
      after: toJson(entry.after),
      outcome: entry.outcome ?? "ok",
      ip: entry.ip ?? null,
    },
  });
}
