import { describe, expect, it } from "vitest";
import { dayToDate } from "./days.ts";

describe("dayToDate", () => {
  it("is the day's UTC midnight, as PostgreSQL date columns come back through Prisma", () => {
    expect(dayToDate("2026-03-01").toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("is an invalid Date for a malformed day, which the validations refuse", () => {
    expect(Number.isNaN(dayToDate("2026-13-40").getTime())).toBe(true);
  });
});
