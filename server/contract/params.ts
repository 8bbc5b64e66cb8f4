import { z } from "zod";

// Parameters every list and every call of the /api/rcr/v1 contract shares, defined once (server and web).
// REST query strings arrive as text, so numbers are coerced; an empty value counts as absent.

export const paramMessages = {
  invalidClinic: "Clínica inválida",
  invalidPage: "La página debe ser un número entero mayor o igual a 1",
  invalidLimit: "El límite debe ser un número entero entre 1 y 100",
  invalidOrderBy: (allowed: readonly string[]) => `Orden inválido: use ${allowed.join(", ")}`,
  invalidDirection: "La dirección del orden debe ser asc o desc",
} as const;

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./paging.ts";

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };
const MAX_PAGE = 1_000_000;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const positiveInt = (message: string, max: number) =>
  z.coerce.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, { error: message });

/**
 * `?clinic=<key>`: the site's clinic, sent by the web app on most calls (SPEC §7, §9). It does not scope anything
 * (privileges do), but it must be a sane value; the server checks it once for the whole /api/rcr/v1 prefix.
 */
export const clinicParam = z
  .string({ error: paramMessages.invalidClinic })
  .trim()
  .max(60, { error: paramMessages.invalidClinic })
  .optional();

/** A query string that may carry `clinic` (other keys pass untouched: each route checks its own). */
export const ZClinicQuery = z.looseObject({ clinic: clinicParam });

/** `page` (from 1) and `limit` (1…100, default 10) of every paged list. */
export const pagingShape = {
  page: z.preprocess(blankToUndefined, positiveInt(paramMessages.invalidPage, MAX_PAGE).default(1)),
  limit: z.preprocess(blankToUndefined, positiveInt(paramMessages.invalidLimit, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
};
export const ZPaging = z.object(pagingShape);
export type Paging = z.output<typeof ZPaging>;

/** Prisma's skip/take for a page. */
export function pageWindow({ page, limit }: Paging): { skip: number; take: number } {
  return { skip: (page - 1) * limit, take: limit };
}

export type SortDirection = "asc" | "desc";

/**
 * `orderBy`/`direction` limited to an allow-list, for a list endpoint. `fields` maps each name the API accepts to the
 * column it sorts (a Prisma field of the model, e.g. `{ fecha: "issuedAt", monto: "amount" }`); `tieBreaker` keeps
 * pages stable when values repeat. Returns the zod shape/schema and the mapper to a Prisma `orderBy`.
 *
 *   const billSort = sortParams({ fecha: "issuedAt", monto: "amount" }, { orderBy: "fecha", direction: "desc" });
 *   const ZListBills = z.object({ ...pagingShape, ...billSort.shape });
 *   prisma.bill.findMany({ orderBy: billSort.toOrderBy(input) });
 */
export function sortParams<const Fields extends Record<string, string>>(
  fields: Fields,
  defaults: { orderBy: keyof Fields & string; direction: SortDirection },
  tieBreaker: Record<string, SortDirection> = { id: "desc" },
) {
  const names = Object.keys(fields) as [keyof Fields & string, ...(keyof Fields & string)[]];
  const shape = {
    orderBy: z.preprocess(blankToUndefined, z.enum(names, { error: paramMessages.invalidOrderBy(names) }).default(defaults.orderBy)),
    direction: z.preprocess(
      blankToUndefined,
      z.enum(["asc", "desc"], { error: paramMessages.invalidDirection }).default(defaults.direction),
    ),
  };
  const schema = z.object(shape);
  function toOrderBy(sort: { orderBy: keyof Fields & string; direction: SortDirection }): Record<string, SortDirection>[] {
    const column = fields[sort.orderBy]!;
    const order = [{ [column]: sort.direction }];
    return Object.keys(tieBreaker).some((key) => key === column) ? order : [...order, tieBreaker];
  }
  return { shape, schema, toOrderBy };
}
