import { describe, expect, it } from "vitest";
import { chileToday } from "../../lib/chile-time.ts";
import { defaultRange, parseDay, resolveRange } from "./result-dates.ts";

describe("results date ranges", () => {
  it("reads real dd/mm/yyyy days and refuses impossible ones", () => {
    expect(parseDay("05/03/2026")).toBe("2026-03-05");
    expect(parseDay("5/3/2026")).toBe("2026-03-05");
    expect(parseDay("29/02/2024")).toBe("2024-02-29");
    expect(parseDay("29/02/2026")).toBeNull();
    expect(parseDay("2026-03-05")).toBeNull();
    expect(parseDay("2026-03-05", true)).toBe("2026-03-05");
  });

  it("defaults to 12 months back to today in Chile", () => {
    const now = new Date("2026-03-01T02:00:00Z"); // still 28 February in Santiago
    expect(chileToday(now)).toBe("2026-02-28");
    expect(defaultRange(now)).toEqual({ from: "2025-02-28", to: "2026-02-28" });
    expect(defaultRange(new Date("2024-02-29T15:00:00Z"))).toEqual({ from: "2023-02-28", to: "2024-02-29" });
  });

  it("refuses a start after the end", () => {
    expect(() => resolveRange({ from: "02/01/2026", to: "01/01/2026" })).toThrow(
      "La fecha de inicio no puede ser posterior a la fecha de término",
    );
    expect(resolveRange({ from: "01/01/2026", to: "01/01/2026" })).toEqual({ from: "2026-01-01", to: "2026-01-01" });
  });
});
