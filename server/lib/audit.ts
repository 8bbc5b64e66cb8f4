import type { PrismaClient } from "../generated/prisma/client.ts";
import type { Database } from "../db/adapters.ts";
import type { AuditActionName } from "../contract/audit.schemas.ts";
import { Role } from "../contract/roles.ts";

// Every audited action, one union per feature. A new feature adds its own type here and to AuditAction
// (bills: "bill.list" | "bill.read" | …), so a typo in an action name is a type error, not a lost audit row.

/** Sign-in (server/features/auth). */
export type AuthAuditAction =
  | "login.patient"
  | "login.staff"
  | "login.second-factor"
  | "login.claveunica"
  | "logout"
  | "password.reset-request"
  | "password.reset"
  | "second-factor.enrol"
  | "session.end"
  | "session.end-others";
/** The caller's own account and terms (server/features/account, server/features/terms). */
export type AccountAuditAction = "account.update" | "account.password-change" | "terms.accept";
/** Staff user administration (server/features/users) and the operator CLI. */
export type UsersAuditAction =
  | "user.list"
  | "user.read"
  | "user.update"
  | "user.create"
  | "user.password-reset"
  | "user.password-reset-link"
  | "user.privileges.read"
  | "user.privileges.update"
  | "user.create.cli"
  | "user.reset.cli"
  | "user.second-factor-reset";
/** The clinic catalogue as staff read it. */
export type ClinicsAuditAction = "clinic.list";

/** Reads of a patient's laboratory and imaging results (server/features/laboratory, imaging, results). */
export type ResultsAuditAction =
  | "lab.orders.list"
  | "lab.order.read"
  | "lab.analyte.series"
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
export type PaymentsAuditAction =
  | "payment.start"
  | "payment.commit"
  | "payment.timeout"
  | "payment.reconcile"
  | "payment.status"
  | "payment.history"
  | "payment.read"
  | "payment.receipt.link"
  | "payment.receipt.download"
  | "payment.refund";

/** Admins reading the audit trail itself (server/features/audit). */
export type AuditTrailAuditAction = "audit.list" | "audit.export";

/** The patient's rights over their data (server/features/data-rights, issue 28). */
export type DataRightsAuditAction =
  | "data.accesses.list"
  | "rights.request.create"
  | "rights.request.list"
  | "rights.request.update"
  | "account.close"
  | "data.export.request"
  | "data.export.prepare"
  | "data.export.download";

/** Admins reading the outbound mail queue's stuck messages (server/features/mail). */
export type MailAuditAction = "mail.queue.read";

/** Caregiver links (server/features/caregivers) and the scheduling page opened for a dependent. */
export type CaregiversAuditAction = "caregiver.list" | "caregiver.create" | "caregiver.renew" | "caregiver.revoke" | "scheduling.open";

/** 'Mis citas' (issue 44). */
export type AppointmentsAuditAction = "appointment.list" | "appointment.calendar" | "appointment.cancel" | "appointment.confirm";

export type AuditAction =
  | AuditTrailAuditAction
  | AuthAuditAction
  | AccountAuditAction
  | UsersAuditAction
  | ClinicsAuditAction
  | ResultsAuditAction
  | BillsAuditAction
  | PaymentsAuditAction
  | MailAuditAction
  | DataRightsAuditAction
  | CaregiversAuditAction
  | AppointmentsAuditAction;

// The screen's list of actions (contract/audit.schemas.ts) and this type are the same set: a new action missing there
// is a type error here.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const actionListMatches: SameSet<AuditAction, AuditActionName> = true;
void actionListMatches;

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

/** A value as the JSON text of a jsonb column, or null (SQL NULL, as Prisma writes an absent Json? field). */
const toJson = (value: unknown): string | null => (value === undefined || value === null ? null : (JSON.stringify(value) ?? null));

/** The client (or transaction client) the rows are written with. */
type AuditWriter = Pick<PrismaClient, "$executeRawUnsafe">;
type SqlExecutor = Database["executeSql"];
type AuditRow = ReturnType<typeof toRow>;

const toRow = (entry: AuditEntry) => ({
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
  createdAt: new Date(),
});

const insertInto = `INSERT INTO "AuditEvent" ("actorId", "actorRole", "action", "resource", "resourceId", "patientId", "before", "after", "outcome", "ip", "createdAt")`;
const columnCount = 11;
// The placeholders of the n-th row of a batch are always the same text: made once per position (at most
// MAX_ROWS_PER_INSERT of them), not for every row of every batch.
const tuplePlaceholders: string[] = [];
function tupleAt(index: number): string {
  const made = tuplePlaceholders[index];
  if (made !== undefined) return made;
  const $ = (n: number) => `$${index * columnCount + n}`;
  const tuple = `(${$(1)}::int, ${$(2)}::int, ${$(3)}::text, ${$(4)}::text, ${$(5)}::text, ${$(6)}::int, ${$(7)}::jsonb, ${$(8)}::jsonb, ${$(9)}::text, ${$(10)}::text, ${$(11)}::timestamptz AT TIME ZONE 'UTC')`;
  tuplePlaceholders[index] = tuple;
  return tuple;
}

/**
 * One INSERT for the batch, in parameterised SQL: the audit row is written on every audited read, and through the model
 * API (create / createMany) its query compilation and the row it reads back cost about half of a cached results list's
 * CPU (issue 26's profile). Columns as in the AuditEvent model; createdAt is set here, in UTC, as Prisma's now() did
 * (an ISO instant read as UTC, so the process's TZ does not matter).
 */
function insertStatement(rows: AuditRow[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]!;
    values.push(row.actorId, row.actorRole, row.action, row.resource, row.resourceId, row.patientId, row.before, row.after);
    values.push(row.outcome, row.ip, row.createdAt.toISOString());
    tuples.push(tupleAt(index));
  }
  return { text: `${insertInto} VALUES ${tuples.join(", ")}`, values };
}

/**
 * Where a batch goes: a Prisma client (a transaction's rows stay inside it; operator commands), or the pool's own
 * connections (deps.sql) for the rows of requests. The same statement either way; through the pool it costs ≈ 300 µs
 * less CPU per batch than Prisma's $executeRawUnsafe, which was a third of a cached imaging list (issue 26).
 */
type AuditTarget = AuditWriter | SqlExecutor;
const insertRows = (target: AuditTarget, rows: AuditRow[]): Promise<unknown> => {
  const { text, values } = insertStatement(rows);
  return typeof target === "function" ? target(text, values) : target.$executeRawUnsafe(text, ...values);
};

interface PendingRow {
  row: AuditRow;
  /** performance.now() when the request asked for its row: the row's wait runs from here to its commit. */
  askedAt: number;
  done: (error?: unknown) => void;
}

/** One committed INSERT of audit rows, as /metrics counts it: the statement's time and each row's wait (in seconds). */
export interface AuditWriteTiming {
  insertSeconds: number;
  /** From each row's request to its commit: the turn behind an INSERT already on its way, plus its own INSERT. */
  rowWaitSeconds: number[];
}
type AuditWriteWatcher = (timing: AuditWriteTiming) => void;
const watchers = new WeakMap<AuditTarget, Set<AuditWriteWatcher>>();

/**
 * Tells `watcher` about every committed INSERT of audit rows written through `target` (the app's pool or Prisma client):
 * every audited answer waits for its row's commit, so a slow commit is a slow answer (issue 46's cold start). Returns the
 * function that stops watching.
 */
export function watchAuditWrites(target: AuditTarget, watcher: AuditWriteWatcher): () => void {
  // A set: two apps on one database (a restart in the same process, a test's second app) each keep their own watcher.
  const watching = watchers.get(target) ?? new Set();
  watchers.set(target, watching.add(watcher));
  return () => void watching.delete(watcher);
}

/**
 * Group commit: while one INSERT of audit rows is on its way, the rows of other requests gather and go in the next
 * one. Each caller still waits until its own row is committed, so nothing is answered unaudited; an idle portal writes
 * at once (no timer), and a busy one writes one statement for many requests instead of one each.
 */
class AuditGroupCommit {
  private queue: PendingRow[] = [];
  private writing = false;

  constructor(private readonly target: AuditTarget) {}

  write(row: AuditRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, askedAt: performance.now(), done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_ROWS_PER_INSERT);
      try {
        const started = performance.now();
        await insertRows(
          this.target,
          batch.map((pending) => pending.row),
        );
        const committed = performance.now();
        const watching = watchers.get(this.target);
        if (watching?.size) {
          const timing = {
            insertSeconds: (committed - started) / 1000,
            rowWaitSeconds: batch.map((pending) => (committed - pending.askedAt) / 1000),
          };
          for (const watcher of watching) watcher(timing);
        }
        for (const pending of batch) pending.done();
      } catch (error) {
        for (const pending of batch) pending.done(error ?? new Error("audit write failed"));
      }
    }
    this.writing = false;
  }
}

const MAX_ROWS_PER_INSERT = 500;
const writers = new WeakMap<AuditTarget, AuditGroupCommit>();

/**
 * Writes one audit row (HIPAA 164.312(b)-style trail: who, what, before/after, when, outcome) and resolves once it is
 * committed. Rows written through the same client at the same time share one INSERT (AuditGroupCommit); a transaction
 * client is its own writer, so its rows stay inside its transaction.
 */
export async function recordAudit(target: AuditTarget, entry: AuditEntry): Promise<void> {
  let writer = writers.get(target);
  if (!writer) {
    writer = new AuditGroupCommit(target);
    writers.set(target, writer);
  }
  await writer.write(toRow(entry));
}

/** One audited action (the one way features audit; recordAudit below is what it writes with). */
export interface ActionAudit {
  action: AuditAction;
  /** Defaults to the action's first segment ("user.update" → "user", "bill.read" → "bill"). */
  resource?: string;
  resourceId?: number | string | null;
  /** The user the action is about: its id is the resource id, and a patient target is the row's patient. */
  target?: { id: number; roleType: number } | null;
  /** The patient whose data this is, when the target is not a user (a bill, a result, a payment). */
  patientId?: number | null;
  /**
   * Whom a patient-area request acts for (actingForPatient in lib/access.ts): that patient is the row's patient, and a
   * caregiver's live link (`linkId`) vouches that the caller may appear in their log.
   */
  scope?: { patient: { id: number }; linkId: number | null };
  before?: unknown;
  after?: unknown;
  outcome?: AuditOutcome;
}

/**
 * Whether `caregiverId` holds or ever held a caregiver link to `dependentId` (revoked and expired links count: the
 * dependent knows that person): who may appear in another patient's log, as their caregiver. 'Accesos a mis datos'
 * applies the same rule when it reads (shownRows in features/data-rights/accesses.service.ts).
 */
async function everCaregiverOf(deps: { sql: SqlExecutor }, caregiverId: number, dependentId: number): Promise<boolean> {
  const { rows } = await deps.sql(`SELECT 1 FROM "CaregiverLink" WHERE "caregiverId" = $1::int AND "dependentId" = $2::int LIMIT 1`, [
    caregiverId,
    dependentId,
  ]);
  return rows.length > 0;
}

/** `after` with the other patient's id added, for the admins' trail (the row no longer names them as its patient). */
function withNamedPatient(after: unknown, patientId: number): unknown {
  if (after === undefined || after === null) return { otherPatientId: patientId };
  if (typeof after === "object" && !Array.isArray(after)) return { ...after, otherPatientId: patientId };
  return { value: after, otherPatientId: patientId };
}

/**
 * The patient a row belongs to, whose 'Accesos a mis datos' shows it: the patient the request acted for, the user acted
 * on when that is a patient, or the owner of the bill, result or payment (issue 42). A patient account naming another
 * patient appears in that patient's log only as their caregiver, that is, when it holds or held a link to them; any
 * other account's attempt (a renamed account sending X-Actuar-Por, ids probed one after another) stays out of the
 * victim's log and is kept for the admins' trail only, with the patient it named in `after` (docs/privacidad.md).
 */
async function rowPatient(
  deps: { sql: SqlExecutor },
  actor: { id: number; roleType: number } | null,
  entry: ActionAudit,
): Promise<{ patientId: number | null; after: unknown }> {
  const patientId = entry.target?.roleType === Role.patient ? entry.target.id : (entry.scope?.patient.id ?? entry.patientId ?? null);
  const anotherPatient = patientId !== null && actor?.roleType === Role.patient && actor.id !== patientId;
  if (!anotherPatient || (entry.scope?.patient.id === patientId && entry.scope.linkId !== null)) return { patientId, after: entry.after };
  if (await everCaregiverOf(deps, actor.id, patientId)) return { patientId, after: entry.after };
  return { patientId: null, after: withNamedPatient(entry.after, patientId) };
}

/**
 * Writes the audit row of an action: who acted (null: the portal itself, e.g. the payment sweep), from which address,
 * what on which resource and patient (rowPatient), before/after and outcome. Resolves once the row is committed.
 */
export async function audit(
  deps: { sql: SqlExecutor },
  actor: { id: number; roleType: number } | null,
  meta: { ip?: string | null } | null | undefined,
  entry: ActionAudit,
): Promise<void> {
  const { patientId, after } = await rowPatient(deps, actor, entry);
  await recordAudit(deps.sql, {
    actorId: actor?.id ?? null,
    actorRole: actor?.roleType ?? null,
    action: entry.action,
    resource: entry.resource ?? entry.action.split(".")[0]!,
    resourceId: entry.target?.id ?? entry.resourceId ?? null,
    patientId,
    before: entry.before,
    after,
    outcome: entry.outcome ?? "ok",
    ip: meta?.ip ?? null,
  });
}
