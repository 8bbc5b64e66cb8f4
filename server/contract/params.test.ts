import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pageWindow, pagingShape, sortParams, ZClinicQuery, ZPaging } from "./params.ts";

describe("shared list parameters", () => {
  it("reads page and limit from query-string text, with page 1 and 10 rows by default", () => {
    expect(ZPaging.parse({})).toEqual({ page: 1, limit: 10 });
    expect(ZPaging.parse({ page: "3", limit: "25" })).toEqual({ page: 3, limit: 25 });
    expect(pageWindow({ page: 3, limit: 25 })).toEqual({ skip: 50, take: 25 });
  });

  it("refuses a page below 1 and a limit over 100 with Spanish messages", () => {
    expect(ZPaging.safeParse({ page: "0" }).error?.issues[0]?.message).toBe("La página debe ser un número entero mayor o igual a 1");
    expect(ZPaging.safeParse({ limit: "101" }).error?.issues[0]?.message).toBe("El límite debe ser un número entero entre 1 y 100");
  });

  it("accepts a sane clinic and refuses an over-long one or a repeated one", () => {
    expect(ZClinicQuery.parse({ clinic: " hcs-rcr ", other: "x" })).toEqual({ clinic: "hcs-rcr", other: "x" });
    expect(ZClinicQuery.safeParse({ clinic: "x".repeat(61) }).error?.issues[0]?.message).toBe("Clínica inválida");
    expect(ZClinicQuery.safeParse({ clinic: ["a", "b"] }).success).toBe(false);
  });
});

describe("allow-listed sorting", () => {
  const sort = sortParams({ fecha: "issuedAt", monto: "amount" }, { orderBy: "fecha", direction: "desc" });
  const ZList = z.object({ ...pagingShape, ...sort.shape });

  it("defaults to the given field and direction and maps to a Prisma orderBy with a stable tie-breaker", () => {
    const input = ZList.parse({});
    expect(input).toMatchObject({ orderBy: "fecha", direction: "desc" });
    expect(sort.toOrderBy(input)).toEqual([{ issuedAt: "desc" }, { id: "desc" }]);
    expect(sort.toOrderBy(ZList.parse({ orderBy: "monto", direction: "asc" }))).toEqual([{ amount: "asc" }, { id: "desc" }]);
  });

  it("refuses a field outside the allow-list (no sorting by arbitrary columns) and a bad direction", () => {
    expect(ZList.safeParse({ orderBy: "passwordHash" }).error?.issues[0]?.message).toBe("Orden inválido: use fecha, monto");
    expect(ZList.safeParse({ direction: "up" }).error?.issues[0]?.message).toBe("La dirección del orden debe ser asc o desc");
  });
});
