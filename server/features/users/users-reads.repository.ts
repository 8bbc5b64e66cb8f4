import type { AppDeps } from "../../deps.ts";
import type { UserDtoSource } from "../../contract/users.dto.ts";
import { userSearchPatterns } from "../../db/users.repository.ts";
import { clinicScopeFilter, type StaffActor } from "../../lib/access.ts";

// The staff user list's page of rows in SQL (issue 26: a Prisma findMany costs ≈ 5× the CPU of the same query through
// pg, see docs/rendimiento.md). The same rows as the Prisma query it replaced (tests/api/users-reads.test.ts holds
// them equal over random data): visibleUsersWhere, the role type and userSearchWhere, newest first. Parameters only;
// a parameter left null switches its condition off.

export interface UserListFilter {
  actor: StaffActor;
  roleType: number | undefined;
  param: string | undefined;
  skip: number;
  take: number;
}

// Prisma's DateTime columns are timestamp without time zone holding UTC; "AT TIME ZONE 'UTC'" makes pg read them as
// UTC instants whatever the process's TZ (a date is midnight UTC, as Prisma gives it).
const userListSql = (search: string, order: string) => `
SELECT u.id, u.rut, u."firstName", u."secondName", u."lastName", u."secondLastName", u.email, u."phoneNumber",
       u."birthDate"::timestamp AT TIME ZONE 'UTC' AS "birthDate", u."roleType", u."hasChangedPassword",
       u."dateTyc" AT TIME ZONE 'UTC' AS "dateTyc"
FROM "User" u
WHERE ($1::text[] IS NULL
       OR (u."roleType" = 2 -- Role.patient
           AND EXISTS (SELECT 1 FROM "PatientClinic" pc WHERE pc."userId" = u.id AND pc."codeClinicStr" = ANY ($1::text[])))
       OR (u."roleType" = 1 -- Role.executive
           AND EXISTS (SELECT 1 FROM "Privilege" p WHERE p."userId" = u.id AND p."codeClinicStr" = ANY ($1::text[]))))
  AND ($2::int IS NULL OR u."roleType" = $2::int)
  AND ($3::text IS NULL OR ${search} LIKE $3::text OR ${search} LIKE $4::text)
ORDER BY ${order} DESC
LIMIT $5::int OFFSET $6::int`;

/**
 * A search's page is found one of two ways, and PostgreSQL's guess of how many users a LIKE '%…%' matches picks
 * between them unreliably (issue 24: from one 100k load run to the next, the same search took 0.35 or 17.6 ms). So
 * the list's total, which the page already counts, decides:
 * - many matches: walk the users newest first and stop at the page (the search text without its trigram index);
 * - few matches: take them all from the trigram index and sort them (the id without its ordered index).
 * Both answer the same rows.
 */
export const FEW_MATCHES = 1_000;
const userListSqlByMatches = {
  unknown: userListSql(`u."searchText"`, "u.id"),
  many: userListSql(`(u."searchText" || '')`, "u.id"),
  few: userListSql(`u."searchText"`, "(u.id + 0)"),
};

/**
 * One page of the users the actor may see, filtered by role type and search term, newest first. `matches` is how
 * many users the filter matches in all, when known (the list's total).
 */
export async function userListRows(deps: Pick<AppDeps, "sql">, filter: UserListFilter, matches?: number): Promise<UserDtoSource[]> {
  const [first = null, second = null] = userSearchPatterns(filter.param);
  const plan = first === null || matches === undefined ? "unknown" : matches > FEW_MATCHES ? "many" : "few";
  const { rows } = await deps.sql(userListSqlByMatches[plan], [
    clinicScopeFilter(filter.actor)?.in ?? null,
    filter.roleType ?? null,
    first,
    second ?? first,
    filter.take,
    filter.skip,
  ]);
  return rows as UserDtoSource[];
}
