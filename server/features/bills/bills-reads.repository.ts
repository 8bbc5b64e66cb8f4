import type { AppDeps } from "../../deps.ts";
import { userSearchPatterns } from "../../db/users.repository.ts";
import { staffSortFields, sortDirections, type SortDirection, type StaffSortField } from "../../contract/bills.lists.ts";
import type { BillRow } from "./bills.dto.ts";

// The bill lists' page of rows in SQL (issue 26: a Prisma findMany costs ≈ 5× the CPU of the same query through pg,
// see docs/rendimiento.md). The same rows as the Prisma query it replaced (tests/api/bills-reads.test.ts holds them
// equal over random data). Parameters only; a parameter left null switches its condition off. The allow-listed sorts
// (bills.lists.ts) each have their complete SQL text, made once here from fixed fragments.

export interface BillListFilter {
  /** Clinic keys the bills must be in; undefined for every clinic (an admin). */
  clinics: readonly string[] | undefined;
  /** Only this patient's bills. */
  userId: number | undefined;
  /** Staff search: account code prefix (digits only) or the patient's RUT, e-mail or names. */
  param: string | undefined;
  orderBy: StaffSortField;
  direction: SortDirection;
  skip: number;
  take: number;
}

const sortColumn: Record<StaffSortField, string> = {
  accountCode: 'b."accountCode"',
  createAccountIdDate: 'b."createAccountIdDate"',
  amount: "b.amount",
  rut: "u.rut",
  firstName: 'u."firstName"',
  isPaid: 'b."isPaid"',
};

// The clinics and the patient every bill list is limited to ($1 and $2; null switches a condition off).
const billScope = `
WHERE ($1::text[] IS NULL OR b."clinicCode" = ANY ($1::text[]))
  AND ($2::int IS NULL OR b."userId" = $2::int)`;
// Prisma's DateTime columns are timestamp without time zone holding UTC: "AT TIME ZONE 'UTC'" makes pg read them as
// UTC instants whatever the process's TZ.
const billListSelect = `
SELECT b.id, b."accountCode", b."createAccountIdDate" AT TIME ZONE 'UTC' AS "createAccountIdDate", b.amount, b."isPaid",
       b."clinicCode", b."filesCount", u.rut, u."firstName", u."lastName"
FROM "Bill" b
JOIN "User" u ON u.id = b."userId"${billScope}`;

// Each kind of search has its own parameters after the four every text has ($5 on, so none is left unused).
const patientSearch = (first: number) =>
  `b."userId" IN (SELECT s.id FROM "User" s WHERE s."searchText" LIKE $${first}::text OR s."searchText" LIKE $${first + 1}::text)`;

// One text per kind of search: the patient condition alone at the top level lets PostgreSQL turn it into a join from
// the trigram index (inside an OR it is checked bill by bill, walking the whole sort index at 100,000 bills).
const searchCondition = {
  none: "",
  patient: `\n  AND ${patientSearch(5)}`,
  codeOrPatient: `\n  AND (b."accountCode" LIKE $5::text OR ${patientSearch(6)})`,
} as const;
type SearchKind = keyof typeof searchCondition;

const billListSql = new Map(
  (Object.keys(searchCondition) as SearchKind[]).flatMap((search) =>
    staffSortFields.flatMap((field) =>
      sortDirections.map((direction) => [
        `${search} ${field} ${direction}`,
        `${billListSelect}${searchCondition[search]}\nORDER BY ${sortColumn[field]} ${direction}, b.id ${direction}\nLIMIT $3::int OFFSET $4::int`,
      ]),
    ),
  ),
);

// The total of a list: the same conditions as billListSelect, parameters $1 and $2, the search from $3. The account code
// or patient search counts the union of the two matches: as one OR, PostgreSQL joins every bill to its patient and
// tests both sides bill by bill (Prisma's count did so: 260 ms at 100,000 bills under the load of issue 24, against
// 15 ms for the union, which takes each side from its own index).
const billTotalSql: Record<SearchKind, string> = {
  none: `SELECT count(*)::int AS n FROM "Bill" b${billScope}`,
  patient: `SELECT count(*)::int AS n FROM "Bill" b${billScope}\n  AND ${patientSearch(3)}`,
  codeOrPatient: `SELECT count(*)::int AS n FROM (
  SELECT b.id FROM "Bill" b${billScope} AND b."accountCode" LIKE $3::text
  UNION
  SELECT b.id FROM "Bill" b${billScope} AND ${patientSearch(4)}
) matches`,
};

interface BillListRow extends Omit<BillRow, "user"> {
  rut: string;
  firstName: string | null;
  lastName: string | null;
}

function searchOf(param: string | undefined): { kind: SearchKind; values: string[] } {
  const term = (param ?? "").trim();
  const kind: SearchKind = !term ? "none" : /^\d+$/.test(term) ? "codeOrPatient" : "patient";
  const [first = null, second = null] = userSearchPatterns(term);
  const patterns = [first!, (second ?? first)!];
  return { kind, values: kind === "none" ? [] : kind === "patient" ? patterns : [`${term}%`, ...patterns] };
}

/** How many bills the list has in all (the paginator's total), for the same filter as billListRows. */
export async function billListTotal(
  deps: Pick<AppDeps, "sql">,
  filter: Pick<BillListFilter, "clinics" | "userId" | "param">,
): Promise<number> {
  const search = searchOf(filter.param);
  const { rows } = await deps.sql(billTotalSql[search.kind], [
    filter.clinics ? [...filter.clinics] : null,
    filter.userId ?? null,
    ...search.values,
  ]);
  return (rows[0] as { n: number }).n;
}

/** One page of bills with their patient's RUT and names, in the requested (allow-listed) order. */
export async function billListRows(deps: Pick<AppDeps, "sql">, filter: BillListFilter): Promise<BillRow[]> {
  const search = searchOf(filter.param);
  const text = billListSql.get(`${search.kind} ${filter.orderBy} ${filter.direction}`);
  if (!text) throw new Error(`Orden no permitido: ${filter.orderBy} ${filter.direction}`);
  const { rows } = await deps.sql(text, [
    filter.clinics ? [...filter.clinics] : null,
    filter.userId ?? null,
    filter.take,
    filter.skip,
    ...search.values,
  ]);
  return (rows as BillListRow[]).map(({ rut, firstName, lastName, ...bill }) => ({ ...bill, user: { rut, firstName, lastName } }));
}
