import type { PrismaClient } from "../generated/prisma/client.ts";
import type { InputJsonValue } from "../generated/prisma/internal/prismaNamespace.ts";

// Every audited action, one union per feature. A new feature adds its own type here and to AuditAction
// (bills: "bill.list" | "bill.read" | …), so a typo in an action name is a type error, not a lost audit row.

/** Sign-in (server/features/auth). */
export type AuthAuditAction = "login.patient" | "login.staff" | "password.reset-request" | "password.reset";
/** The caller's own account and terms (server/features/account, server/features/terms). */
export type AccountAuditAction = "account.update" | "account.password-change" | "terms.accept";
/** Staff user administration (server/features/users) and the operator CLI. */
export type UsersAuditAction =
  | "user.list"
  | "user.read"
  | "user.update"
  | "user.create"
  | "user.password-reset"
  | "user.privileges.read"
  | "user.privileges.update"
  | "user.create.cli"
  | "user.reset.cli";
/** The clinic catalogue as staff read it. */
export type ClinicsAuditAction = "clinic.list";

/** Reads of a patient's laboratory and imaging results (server/features/laboratory, imaging, results). */
export type ResultsAuditAction =
  | "lab.orders.list"
  | "lab.order.read"
  | "imaging.studies.list"
  | "imaging.viewer.open"
  | "imaging.report.link"
  | "results.report.read"
  | "results.report.mail";

/** Hospital bills and their files (server/features/bills). */
export type BillsAuditAction =
  | "bill.list"
  | "bill.read"
  | "bill.create"
  | "bill.update"
  | "bill.delete"
  | "bill.files.list"
  | "bill.files.upload"
  | "bill.file.delete"
  | "bill.file.link"
  | "bill.file.download"
  | "bill.status";

/** Card payment of bills (server/features/payments). */
export type PaymentsAuditAction = "payment.start" | "payment.commit" | "payment.timeout" | "payment.reconcile" | "payment.status";

export type AuditAction =
  | AuthAuditAction
  | AccountAuditAction
  | UsersAuditAction
  | ClinicsAuditAction
  | ResultsAuditAction
  | BillsAuditAction
  | PaymentsAuditAction;

export type AuditOutcome = "ok" | "denied" | "failed";

export interface AuditEntry {
  actorId?: number | null;
  actorRole?: number | null;
  action: AuditAction;
  resource: string;
  resourceId?: string | number | null;
  patientId?: number | null;
  before?: unknown;
  after?: unknown;
  outcome?: AuditOutcome;
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
