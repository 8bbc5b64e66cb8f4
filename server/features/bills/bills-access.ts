import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { Role } from "../../contract/roles.ts";
import { staffRefusal, type SessionUser } from "../../http/authenticate.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";

// Who may see and change which bill. Self-contained (it needs only the session user and the Privilege table), so it
// can move to server/lib/access.ts beside the users' scope helpers unchanged. Clinics are read from the database on
// every call, never from the token: a privilege granted or removed applies on the next request.

export type BillsAction =
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

/** Who is acting on bills: an admin (every clinic), an executive (their clinics now) or a patient (their own bills). */
export type BillsActor =
  | { kind: "admin"; user: SessionUser }
  | { kind: "executive"; user: SessionUser; clinics: string[] }
  | { kind: "patient"; user: SessionUser };

export interface BillsAuditEntry {
  action: BillsAction;
  resource?: "bill" | "bill-file";
  resourceId?: number | string | null;
  patientId?: number | null;
  before?: unknown;
  after?: unknown;
  outcome?: "ok" | "denied" | "failed";
}

export function auditBills(deps: AppDeps, user: SessionUser, meta: RequestMeta, entry: BillsAuditEntry): Promise<void> {
  return recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: entry.action,
    resource: entry.resource ?? "bill",
    resourceId: entry.resourceId ?? null,
    patientId: entry.patientId ?? null,
    before: entry.before,
    after: entry.after,
    outcome: entry.outcome ?? "ok",
    ip: meta.ip,
  });
}

async function staffActor(deps: AppDeps, user: SessionUser): Promise<BillsActor> {
  if (user.roleType === Role.admin) return { kind: "admin", user };
  const privileges = await deps.prisma.privilege.findMany({ where: { userId: user.id }, select: { codeClinicStr: true } });
  return { kind: "executive", user, clinics: privileges.map((p) => p.codeClinicStr) };
}

/** Staff only: patients and any other role get 403 (audited as denied), as does staff with a temporary password. */
export async function requireBillsStaff(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: BillsAction): Promise<BillsActor> {
  const refusal = staffRefusal(user);
  if (refusal) {
    await auditBills(deps, user, meta, { action, outcome: "denied" });
    throw new AppError("FORBIDDEN", refusal);
  }
  return staffActor(deps, user);
}

/** Patients (for their own bills) or staff (for their clinics' bills). */
export async function requireBillsReader(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: BillsAction): Promise<BillsActor> {
  if (user.roleType === Role.patient) return { kind: "patient", user };
  return requireBillsStaff(deps, user, meta, action);
}

/** The bills the actor may see or change. */
export function billScopeWhere(actor: BillsActor): Prisma.BillWhereInput {
  if (actor.kind === "admin") return {};
  if (actor.kind === "executive") return { clinicCode: { in: actor.clinics } };
  return { userId: actor.user.id };
}

/** May the actor place or keep a bill at this clinic? */
export function holdsClinic(actor: BillsActor, clinicCode: string): boolean {
  return actor.kind === "admin" || (actor.kind === "executive" && actor.clinics.includes(clinicCode));
}
