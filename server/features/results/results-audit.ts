import type { AppDeps, RequestMeta } from "../../deps.ts";
import { recordAudit, type ResultsAuditAction } from "../../lib/audit.ts";

export type ResultAction = ResultsAuditAction;

/** Every read of a patient's results is recorded: who, which patient (always the reader here), which order or study. */
export async function auditResultRead(
  deps: AppDeps,
  reader: { id: number; roleType: number },
  meta: RequestMeta,
  entry: {
    action: ResultAction;
    resource: "LabOrder" | "ImagingStudy";
    resourceId?: string | null;
    after?: unknown;
    outcome?: "ok" | "failed";
  },
): Promise<void> {
  await recordAudit(deps.prisma, {
    actorId: reader.id,
    actorRole: reader.roleType,
    patientId: reader.id,
    action: entry.action,
    resource: entry.resource,
    resourceId: entry.resourceId ?? null,
    after: entry.after,
    outcome: entry.outcome ?? "ok",
    ip: meta.ip,
  });
}
