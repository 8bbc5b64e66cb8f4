import { useSearchParams } from "react-router";
import type { SortDirection } from "@contract/bills.lists.ts";

// The one way a list keeps its state in the address (issue 25): page, its text filters and its sort, so coming back
// to the list (from a bill, a user) shows the same rows. Defaults stay out of the address.

export interface SortState<F extends string> {
  orderBy: F;
  direction: SortDirection;
}

/** A positive whole number from a query-string value (an id, a page), else undefined. */
export function positiveIntParam(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return undefined;
  const number = Number(value);
  return number >= 1 ? number : undefined;
}

// Six digits, as the lists always read it; the server refuses pages past a million.
const LAST_PAGE_READ = 999_999;

/** The page in the address: a positive whole number, 1 when absent, not one, or past any real list. */
export function pageParam(value: string | null): number {
  const page = positiveIntParam(value);
  return page !== undefined && page <= LAST_PAGE_READ ? page : 1;
}

/** The sort in the address (?orderBy=&direction=), falling back to the default for anything not allowed. */
export function sortFromParams<F extends string>(params: URLSearchParams, allowed: readonly F[], fallback: SortState<F>): SortState<F> {
  const orderBy = params.get("orderBy") as F | null;
  const direction = params.get("direction");
  return {
    orderBy: orderBy && allowed.includes(orderBy) ? orderBy : fallback.orderBy,
    direction: direction === "ASC" || direction === "DESC" ? direction : fallback.direction,
  };
}

/** Each text parameter's name and how its value is read (e.g. an unknown role type read as ''). */
export type TextParams<K extends string> = Record<K, (raw: string) => string>;

/** Reads a text parameter as it was written. */
export const asWritten = (raw: string) => raw;

/** The address of a list state: its text parameters when not empty, the sort when not the default, the page when not 1. */
export function listQuery<K extends string, F extends string>(
  state: { page: number; values: Record<K, string>; sort?: SortState<F> },
  defaultSort?: SortState<F>,
): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(state.values) as Array<[K, string]>) if (value) query.set(key, value);
  const { sort } = state;
  if (sort && defaultSort && (sort.orderBy !== defaultSort.orderBy || sort.direction !== defaultSort.direction)) {
    query.set("orderBy", sort.orderBy);
    query.set("direction", sort.direction);
  }
  if (state.page !== 1) query.set("page", String(state.page));
  return query;
}

export interface ListUrlState<K extends string, F extends string> {
  page: number;
  /** Each text parameter as read, '' when absent. */
  values: Record<K, string>;
  sort: SortState<F>;
  /**
   * Replaces the address with this state; what `next` leaves out stays as it is. `keepScroll` leaves the page where it
   * is (the router otherwise scrolls to the top, as for a new page).
   */
  show(next: { page?: number; sort?: SortState<F> } & Partial<Record<K, string>>, options?: { keepScroll?: boolean }): void;
}

/** The list state in the address: `textParams` names the text filters; `sort` (allowed fields, default) when it sorts. */
export function useListUrlState<K extends string, F extends string = never>(
  textParams: TextParams<K>,
  sortOptions?: { allowed: readonly F[]; fallback: SortState<F> },
): ListUrlState<K, F> {
  const [params, setParams] = useSearchParams();
  const page = pageParam(params.get("page"));
  const keys = Object.keys(textParams) as K[];
  const values = Object.fromEntries(keys.map((key) => [key, textParams[key](params.get(key) ?? "")])) as Record<K, string>;
  const sort = sortOptions ? sortFromParams(params, sortOptions.allowed, sortOptions.fallback) : (undefined as never);

  function show(next: { page?: number; sort?: SortState<F> } & Partial<Record<K, string>>, options: { keepScroll?: boolean } = {}) {
    const nextValues = Object.fromEntries(keys.map((key) => [key, next[key] ?? values[key]])) as Record<K, string>;
    const state = { page: next.page ?? page, values: nextValues, sort: next.sort ?? sort };
    const query = listQuery(state, sortOptions?.fallback);
    // What the list does not manage stays (the staff accesses page's userId: dropping it lost the patient, issue 45).
    const managed = new Set<string>([...keys, "page", "orderBy", "direction"]);
    for (const [key, value] of params) if (!managed.has(key)) query.set(key, value);
    setParams(query, { replace: true, preventScrollReset: options.keepScroll === true });
  }

  return { page, values, sort, show };
}
