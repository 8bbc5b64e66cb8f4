import { DEFAULT_PAGE_SIZE } from "@contract/paging.ts";

/** SPEC §9 page size (the contract's default page size). */
export const PAGE_SIZE = DEFAULT_PAGE_SIZE;

export interface PaginatorModel {
  /** Number of pages (at least 1). */
  pageCount: number;
  /** Page numbers to show: the current one and up to two on each side. */
  pages: number[];
  /** The first-page arrow shows when the current page is above 3. */
  showFirst: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** What the paginator shows for a page (1-based) of `total` items. */
export function paginatorModel(page: number, total: number, limit: number = PAGE_SIZE): PaginatorModel {
  const pageCount = Math.max(1, Math.ceil(total / limit));
  const current = Math.min(Math.max(1, page), pageCount);
  const pages: number[] = [];
  for (let p = Math.max(1, current - 2); p <= Math.min(pageCount, current + 2); p++) pages.push(p);
  return { pageCount, pages, showFirst: current > 3, hasPrevious: current > 1, hasNext: current < pageCount };
}
