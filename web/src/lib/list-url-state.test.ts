import { describe, expect, it } from "vitest";
import { listQuery, pageParam, positiveIntParam, sortFromParams, withListState } from "./list-url-state.ts";

describe("positiveIntParam", () => {
  it("reads positive integers only", () => {
    expect(positiveIntParam("42")).toBe(42);
    expect(positiveIntParam("0")).toBeUndefined();
    expect(positiveIntParam("-3")).toBeUndefined();
    expect(positiveIntParam("abc")).toBeUndefined();
    expect(positiveIntParam("1.5")).toBeUndefined();
    expect(positiveIntParam(null)).toBeUndefined();
  });
});

describe("pageParam", () => {
  it("reads the page, 1 when absent, not a positive whole number, or past any real list", () => {
    expect(pageParam("3")).toBe(3);
    expect(pageParam(null)).toBe(1);
    expect(pageParam("0")).toBe(1);
    expect(pageParam("dos")).toBe(1);
    expect(pageParam("999999")).toBe(999999);
    expect(pageParam("1000000")).toBe(1);
  });
});

describe("sortFromParams", () => {
  const fallback = { orderBy: "createAccountIdDate", direction: "DESC" } as const;
  const allowed = ["createAccountIdDate", "amount"] as const;

  it("reads an allowed field and direction", () => {
    expect(sortFromParams(new URLSearchParams("orderBy=amount&direction=ASC"), allowed, fallback)).toEqual({
      orderBy: "amount",
      direction: "ASC",
    });
  });

  it("falls back for a field or direction not allowed", () => {
    expect(sortFromParams(new URLSearchParams("orderBy=password&direction=sideways"), allowed, fallback)).toEqual(fallback);
  });
});

describe("listQuery", () => {
  const defaultSort = { orderBy: "createAccountIdDate", direction: "DESC" } as const;

  it("leaves the defaults out of the address", () => {
    expect(listQuery({ page: 1, values: { buscar: "" }, sort: defaultSort }, defaultSort).toString()).toBe("");
  });

  it("writes the filters set, the sort when not the default (both parts) and the page when not 1", () => {
    const query = listQuery({ page: 2, values: { buscar: "ana", tipo: "" }, sort: { orderBy: "amount", direction: "DESC" } }, defaultSort);
    expect(Object.fromEntries(query)).toEqual({ buscar: "ana", orderBy: "amount", direction: "DESC", page: "2" });
  });
});

describe("withListState", () => {
  it("keeps the parameters the list does not own, such as the patient a staff member is looking at", () => {
    const next = withListState(new URLSearchParams("userId=7&otras=1&page=3"), ["otras", "desde"], new URLSearchParams("otras=0"));
    expect(next.toString()).toBe("userId=7&otras=0");
  });
});
