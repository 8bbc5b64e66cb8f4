import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon } from "./icons.tsx";
import { PAGE_SIZE, paginatorModel } from "./paginator-pages.ts";

export interface PaginatorProps {
  /** Current page, 1-based. */
  page: number;
  total: number;
  limit?: number;
  /** Called with the new page; not called for the page already shown. */
  onPageChange(page: number): void;
}

/** SPEC §9 paginator: current page ±2, a first-page arrow above page 3, previous and next. */
export function Paginator({ page, total, limit = PAGE_SIZE, onPageChange }: PaginatorProps) {
  const model = paginatorModel(page, total, limit);
  const go = (target: number) => {
    if (target !== page && target >= 1 && target <= model.pageCount) onPageChange(target);
  };
  return (
    <nav className="paginator" aria-label="Paginación">
      {model.showFirst ? (
        <button type="button" className="paginator__button" onClick={() => go(1)} aria-label="Primera página">
          <ChevronsLeftIcon size={16} />
        </button>
      ) : null}
      <button
        type="button"
        className="paginator__button"
        onClick={() => go(page - 1)}
        disabled={!model.hasPrevious}
        aria-label="Página anterior"
      >
        <ChevronLeftIcon size={16} />
      </button>
      {model.pages.map((p) => (
        <button
          key={p}
          type="button"
          className={`paginator__button${p === page ? " paginator__button--current" : ""}`}
          onClick={() => go(p)}
          aria-current={p === page ? "page" : undefined}
          aria-label={`Página ${p}`}
        >
          {p}
        </button>
      ))}
      <button
        type="button"
        className="paginator__button"
        onClick={() => go(page + 1)}
        disabled={!model.hasNext}
        aria-label="Página siguiente"
      >
        <ChevronRightIcon size={16} />
      </button>
    </nav>
  );
}
