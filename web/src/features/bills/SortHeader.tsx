import type { SortDirection } from "@contract/bills.lists.ts";
import type { SortState } from "../../lib/list-url-state.ts";

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
