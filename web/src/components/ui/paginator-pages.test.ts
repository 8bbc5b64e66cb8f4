import { describe, expect, it } from "vitest";
import { paginatorModel } from "./paginator-pages.ts";

describe("paginatorModel", () => {
  it("shows the current page and two on each side", () => {
    expect(paginatorModel(5, 100).pages).toEqual([3, 4, 5, 6, 7]);
  });

  it("clips the window at the first and last pages", () => {
    expect(paginatorModel(1, 100).pages).toEqual([1, 2, 3]);
    expect(paginatorModel(10, 100).pages).toEqual([8, 9, 10]);
    expect(paginatorModel(2, 25).pages).toEqual([1, 2, 3]);
  });

  it("shows the first-page arrow only above page 3", () => {
    expect(paginatorModel(3, 100).showFirst).toBe(false);
    expect(paginatorModel(4, 100).showFirst).toBe(true);
  });

  it("uses pages of 10 and keeps one page for an empty list", () => {
    expect(paginatorModel(1, 31).pageCount).toBe(4);
    expect(paginatorModel(1, 0)).toMatchObject({ pageCount: 1, pages: [1], hasPrevious: false, hasNext: false });
  });

  it("offers previous and next only where there is a page", () => {
    expect(paginatorModel(1, 30)).toMatchObject({ hasPrevious: false, hasNext: true });
    expect(paginatorModel(3, 30)).toMatchObject({ hasPrevious: true, hasNext: false });
  });
});
