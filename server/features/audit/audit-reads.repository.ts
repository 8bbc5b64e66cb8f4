import type { AppDeps } from "../../deps.ts";

// The audit screen's page and its capped count in SQL (issue 26: a Prisma findMany costs ≈ 5× the CPU of the same
// query through pg, see docs/rendimiento.md). The same rows and count as the Prisma queries they replaced
// (tests/api/list-reads.test.ts holds them equal over random data). Parameters only; null switches a condition off.

export interface AuditRowFilter {
  actorId: number | undefined;
  patientId: number | undefined;
  action: string | undefined;
  /** createdAt ≥ from and < to (instants). */
  from: Date | undefined;
  to: Date | undefined;
}

export interface AuditRow {
  id: number;
  createdAt: Date;
  action: string;
  resource: string;
  resourceId: string | null;
  outcome: string;
  actorId: number | null;
  actorRole: number | null;
  patientId: number | null;
  ip: string | null;
  before: unknown;
  after: unknown;
}

// createdAt is timestamp without time zone holding UTC (Prisma's DateTime): instants go in as ISO text converted to
// UTC there, and come out "AT TIME ZONE 'UTC'", whatever the process's TZ.
const auditWhere = `
WHERE ($1::int IS NULL OR "actorId" = $1::int)
  AND ($2::int IS NULL OR "patientId" = $2::int)
  AND ($3::text IS NULL OR action = $3::text)
  AND ($4::timestamptz IS NULL OR "createdAt" >= ($4::timestamptz AT TIME ZONE 'UTC'))
  AND ($5::timestamptz IS NULL OR "createdAt" < ($5::timestamptz AT TIME ZONE 'UTC'))`;

const auditRowsSql = `
SELECT id, "createdAt" AT TIME ZONE 'UTC' AS "createdAt", action, resource, "resourceId", outcome, "actorId", "actorRole",
       "patientId", ip, before, after
FROM "AuditEvent"${auditWhere}
ORDER BY "createdAt" DESC, id DESC
LIMIT $6::int OFFSET $7::int`;

const auditCountSql = `SELECT count(*)::int AS n FROM (SELECT 1 FROM "AuditEvent"${auditWhere} LIMIT $6::int) capped`;

function filterValues(filter: AuditRowFilter): unknown[] {
  return [
    filter.actorId ?? null,
    filter.patientId ?? null,
    filter.action ?? null,
    filter.from?.toISOString() ?? null,
    filter.to?.toISOString() ?? null,
  ];
}

/** The filtered trail, newest first, `skip` rows in, at most `take`. */
export async function auditRows(
  deps: Pick<AppDeps, "sql">,
  filter: AuditRowFilter,
  window: { skip: number; take: number },
): Promise<AuditRow[]> {
  const { rows } = await deps.sql(auditRowsSql, [...filterValues(filter), window.take, window.skip]);
  return rows as AuditRow[];
}

/** How many rows match, counting no further than `cap`. */
export async function auditCount(deps: Pick<AppDeps, "sql">, filter: AuditRowFilter, cap: number): Promise<number> {
  const { rows } = await deps.sql(auditCountSql, [...filterValues(filter), cap]);
  return (rows[0] as { n: number }).n;
}
