import {
  ZOwnAccessesInput,
  ZPatientAccessesInput,
  type AccessActor,
  type AccessPage,
  type AccessScope,
} from "../../contract/data-rights.schemas.ts";
import { Role } from "../../contract/roles.ts";
import { formatRut } from "../../contract/rut.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { audit } from "../../lib/audit.ts";
import { chileDayEnd, chileDayStart } from "../../lib/chile-time.ts";
import { requirePatientUser, requireVisiblePatient } from "./patient-scope.ts";

// 'Accesos a mis datos' (issue 28): the audit rows about one patient (AuditEvent.patientId), newest first, with who
// acted as the patient reads it. The staff view of a patient (from the user's edit page) is the same list.

interface AccessQuery {
  from?: string;
  to?: string;
  scope?: AccessScope;
  page: number;
  limit: number;
}

const fullName = (person: { firstName: string | null; lastName: string | null }) =>
  [person.firstName, person.lastName].filter(Boolean).join(" ") || "Sin nombre";

/**
 * Who acted, as the patient reads it. A patient-role actor other than the patient is a caregiver (issue 30): the list
 * holds no other patient's rows (shownRows).
 */
function actorOf(
  patientId: number,
  row: { actorId: number | null; actorRole: number | null },
  people: Map<number, { firstName: string | null; lastName: string | null; roleType: number }>,
): AccessActor {
  if (row.actorId === null) return { kind: "system" };
  if (row.actorId === patientId) return { kind: "self" };
  const person = people.get(row.actorId);
  const role = row.actorRole ?? person?.roleType ?? null;
  const name = person ? fullName(person) : `Usuario ${row.actorId}`;
  if (role === Role.admin) return { kind: "staff", name, role: "Administrador" };
  if (role === Role.executive) return { kind: "staff", name, role: "Ejecutivo" };
  return { kind: "caregiver", name };
}

/**
 * The rows of the patient's log: their own, the clinic's systems', staff's, and those of people who are or were their
 * caregivers. Another patient account is never shown (issue 42): since then the audit helper no longer records one's
 * attempts with the patient (lib/audit.ts, everCaregiverOf), and rows recorded before are left out here.
 */
async function shownRows(deps: AppDeps, patientId: number): Promise<Prisma.AuditEventWhereInput> {
  const links = await deps.prisma.caregiverLink.findMany({ where: { dependentId: patientId }, select: { caregiverId: true } });
  return {
    OR: [
      { actorRole: null },
      { actorRole: { not: Role.patient } },
      { actorId: { in: [patientId, ...new Set(links.map((link) => link.caregiverId))] } },
    ],
  };
}

/**
 * One page of the log. 'Solo otras personas' (issue 45 §8) leaves out the patient's own rows; asked for nothing, it
 * applies when someone else acted in those days, so the page opens on what the patient has to check.
 */
async function accessPage(deps: AppDeps, patientId: number, query: AccessQuery): Promise<AccessPage> {
  const inRange: Prisma.AuditEventWhereInput = {
    patientId,
    createdAt: query.from || query.to ? { gte: query.from && chileDayStart(query.from), lt: query.to && chileDayEnd(query.to) } : undefined,
    AND: [await shownRows(deps, patientId)],
  };
  const byOthers: Prisma.AuditEventWhereInput = { ...inRange, OR: [{ actorId: null }, { actorId: { not: patientId } }] };
  const othersTotal = await deps.prisma.auditEvent.count({ where: byOthers });
  const scope: AccessScope = query.scope ?? (othersTotal > 0 ? "others" : "all");
  const where = scope === "others" ? byOthers : inRange;
  const [total, rows] = await Promise.all([
    scope === "others" ? othersTotal : deps.prisma.auditEvent.count({ where }),
    deps.prisma.auditEvent.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
      select: { id: true, createdAt: true, actorId: true, actorRole: true, action: true, resource: true, outcome: true },
    }),
  ]);
  const actorIds = [...new Set(rows.map((row) => row.actorId).filter((id): id is number => id !== null && id !== patientId))];
  const people = actorIds.length
    ? await deps.prisma.user.findMany({
        where: { id: { in: actorIds } },
        select: { id: true, firstName: true, lastName: true, roleType: true },
      })
    : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      actor: actorOf(patientId, row, byId),
      action: row.action,
      resource: row.resource,
      outcome: row.outcome,
    })),
    page: query.page,
    total,
    scope,
    othersTotal,
  };
}

/** The signed-in patient's accesses. Their own reading of this list is audited without a patient, so it does not fill it. */
export async function listOwnAccesses(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<AccessPage> {
  const patient = requirePatientUser(user);
  const query = parseInput(ZOwnAccessesInput, input);
  const page = await accessPage(deps, patient.id, query);
  await audit(deps, user, meta, { action: "data.accesses.list", resource: "accesses", resourceId: patient.id, after: query });
  return page;
}

/** Staff: one patient's accesses (admins any patient, executives patients of their clinics; others 404). */
export async function listPatientAccesses(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<AccessPage> {
  const { userId, ...query } = parseInput(ZPatientAccessesInput, input);
  const { patient } = await requireVisiblePatient(deps, user, meta, "data.accesses.list", userId);
  const page = await accessPage(deps, patient.id, query);
  await audit(deps, user, meta, { action: "data.accesses.list", resource: "accesses", target: patient, after: query });
  // Staff see whose accesses these are (issue 45: the page named no patient).
  const name = [patient.firstName, patient.lastName, patient.secondLastName].filter(Boolean).join(" ");
  return { ...page, patient: { name, rut: formatRut(patient.rut) } };
}
