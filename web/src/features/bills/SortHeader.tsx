import type { SortDirection } from "@contract/bills.lists.ts";

export interface SortState<F extends string> {
  orderBy: F;
  direction: SortDirection;
}

export interface SortHeaderProps<F extends string> {
  label: string;
  field: F;
  sort: SortState<F>;
  onSort(next: SortState<F>): void;
}

/** A column header that sorts: the arrow shows the active direction; pressing again flips it. */
export function SortHeader<F extends string>({ label, field, sort, onSort }: SortHeaderProps<F>) {
  const active = sort.orderBy === field;
  const next: SortDirection = active && sort.direction === "DESC" ? "ASC" : active ? "DESC" : "ASC";
  return (
    <th scope="col" role="columnheader" aria-sort={active ? (sort.direction === "ASC" ? "ascending" : "descending") : "none"}>
      <button
        type="button"
        className={`sort-header${active ? " sort-header--active" : ""}`}
        onClick={() => onSort({ orderBy: field, direction: next })}
      >
        {label}
        <span className="sort-header__icon" aria-hidden="true">
          {active ? (sort.direction === "ASC" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
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
