import {
  AUDIT_COUNT_CAP,
  AUDIT_EXPORT_MAX_ROWS,
  ZAuditFilters,
  ZAuditListInput,
  type AuditEventDto,
  type AuditFilters,
  type AuditPage,
} from "../../contract/audit.schemas.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { Role } from "../../contract/roles.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { requireAdmin, requireStaffActor } from "../../lib/access.ts";
import { forbiddenMessage } from "../../lib/errors.ts";
import { audit, type AuditAction } from "../../lib/audit.ts";
import { auditCsv } from "./audit-csv.ts";
import { chileDayEnd, chileDayStart } from "../../lib/chile-time.ts";
import { pageWindow } from "../../contract/params.ts";
import { auditCount, auditRows, type AuditRow, type AuditRowFilter } from "./audit-reads.repository.ts";

// The audit trail for admins: read-only (the table refuses UPDATE, DELETE and TRUNCATE itself, see the migration
// audit_append_only), filtered by who acted, which patient, action and days, newest first.

/** Admins only: executives and patients are refused (audited as denied) with the usual 403. */
async function requireAuditReader(deps: AppDeps, user: SessionUser, meta: RequestMeta, action: AuditAction): Promise<void> {
  const actor = await requireStaffActor(deps, user, meta, action);
  await requireAdmin(deps, actor, meta, { action, resource: "audit" }, forbiddenMessage);
}

/** The rows' filter, or null when a RUT asked for belongs to nobody (nothing can match). */
async function auditFilter(deps: AppDeps, filters: AuditFilters): Promise<AuditRowFilter | null> {
  const idOf = async (rut: string | undefined) =>
    rut === undefined
      ? undefined
      : ((await deps.prisma.user.findUnique({ where: { rut: normalizeRut(rut) }, select: { id: true } }))?.id ?? null);
  const [actorId, patientId] = await Promise.all([idOf(filters.actor), idOf(filters.patient)]);
  if (actorId === null || patientId === null) return null;
  return {
    actorId,
    patientId,
    action: filters.action,
    from: filters.from ? chileDayStart(filters.from) : undefined,
    to: filters.to ? chileDayEnd(filters.to) : undefined,
  };
}

/**
 * The patient the trail was filtered on, when it is one: reading who accessed a patient's data is itself an access to
 * it, and shows in their 'Accesos a mis datos' (issue 42).
 */
async function filteredPatient(deps: AppDeps, filter: AuditRowFilter | null): Promise<number | null> {
  if (filter?.patientId === undefined) return null;
  const person = await deps.prisma.user.findUnique({ where: { id: filter.patientId }, select: { roleType: true } });
  return person?.roleType === Role.patient ? filter.patientId : null;
}

/** The rows as the screen and the CSV show them: who acted and which patient, by RUT and name. */
async function toDtos(deps: AppDeps, rows: AuditRow[]): Promise<AuditEventDto[]> {
  const ids = [...new Set(rows.flatMap((row) => [row.actorId, row.patientId]).filter((id): id is number => id !== null))];
  const people = ids.length
    ? await deps.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, rut: true, firstName: true, lastName: true } })
    : [];
  const byId = new Map(
    people.map((person) => [person.id, { rut: person.rut, name: [person.firstName, person.lastName].filter(Boolean).join(" ") }]),
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    resource: row.resource,
    resourceId: row.resourceId,
    outcome: row.outcome,
    actorRole: row.actorRole,
    actor: row.actorId === null ? null : (byId.get(row.actorId) ?? { rut: "", name: `Usuario ${row.actorId}` }),
    patient: row.patientId === null ? null : (byId.get(row.patientId) ?? { rut: "", name: `Usuario ${row.patientId}` }),
    ip: row.ip,
    details:
      row.before === null && row.after === null
        ? null
        : JSON.stringify({ antes: row.before ?? undefined, despues: row.after ?? undefined }),
  }));
}

/** GET /admin/audit/events and tRPC audit.list: one page of the filtered trail, newest first. */
export async function listAuditEvents(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<AuditPage> {
  await requireAuditReader(deps, user, meta, "audit.list");
  const { page, limit, ...filters } = parseInput(ZAuditListInput, input);
  const filter = await auditFilter(deps, filters);
  let result: AuditPage = { events: [], page, total: 0, totalCapped: false };
  if (filter) {
    const [counted, rows] = await Promise.all([
      auditCount(deps, filter, AUDIT_COUNT_CAP + 1),
      auditRows(deps, filter, pageWindow({ page, limit })),
    ]);
    result = { events: await toDtos(deps, rows), page, total: Math.min(counted, AUDIT_COUNT_CAP), totalCapped: counted > AUDIT_COUNT_CAP };
  }
  await audit(deps, user, meta, {
    action: "audit.list",
    resource: "audit",
    patientId: await filteredPatient(deps, filter),
    after: { ...filters, page },
  });
  return result;
}

/** GET /admin/audit/export.csv: every filtered row up to AUDIT_EXPORT_MAX_ROWS, newest first. */
export async function exportAuditCsv(
  deps: AppDeps,
  user: SessionUser,
  input: unknown,
  meta: RequestMeta,
): Promise<{ csv: string; rows: number; capped: boolean }> {
  await requireAuditReader(deps, user, meta, "audit.export");
  const filters = parseInput(ZAuditFilters, input);
  const filter = await auditFilter(deps, filters);
  const rows = filter ? await auditRows(deps, filter, { skip: 0, take: AUDIT_EXPORT_MAX_ROWS + 1 }) : [];
  const capped = rows.length > AUDIT_EXPORT_MAX_ROWS;
  const events = await toDtos(deps, rows.slice(0, AUDIT_EXPORT_MAX_ROWS));
  await audit(deps, user, meta, {
    action: "audit.export",
    resource: "audit",
    patientId: await filteredPatient(deps, filter),
    after: { ...filters, rows: events.length, capped },
  });
  return { csv: auditCsv(events), rows: events.length, capped };
}
