import { describe, expect, it } from "vitest";
import { formatTermsDate } from "./format-terms-date.ts";

describe("formatTermsDate", () => {
  it("shows the UTC time plus 60 minutes as DD-MM-YYYY HH:mm:ss", () => {
    expect(formatTermsDate("2026-03-05T14:07:09.000Z")).toBe("05-03-2026 15:07:09");
  });

  it("rolls over to the next day, month and year when the extra hour passes midnight", () => {
    expect(formatTermsDate("2025-12-31T23:30:00.000Z")).toBe("01-01-2026 00:30:00");
    expect(formatTermsDate("2026-02-28T23:59:59.000Z")).toBe("01-03-2026 00:59:59");
  });

  it("reads timestamps written with another offset by their instant", () => {
    expect(formatTermsDate("2026-07-01T09:15:30-04:00")).toBe("01-07-2026 14:15:30");
  });

  it("accepts a Date", () => {
    expect(formatTermsDate(new Date(Date.UTC(2024, 1, 29, 8, 0, 5)))).toBe("29-02-2024 09:00:05");
  });

  it("does not depend on the time zone of the browser", () => {
    const original = process.env.TZ;
    try {
      process.env.TZ = "America/Santiago";
      expect(formatTermsDate("2026-01-10T02:00:00Z")).toBe("10-01-2026 03:00:00");
      process.env.TZ = "Asia/Tokyo";
      expect(formatTermsDate("2026-01-10T02:00:00Z")).toBe("10-01-2026 03:00:00");
    } finally {
      process.env.TZ = original;
    }
  });

  it("gives null when there is no date or it cannot be read", () => {
    expect(formatTermsDate(null)).toBeNull();
    expect(formatTermsDate(undefined)).toBeNull();
    expect(formatTermsDate("")).toBeNull();
    expect(formatTermsDate("no es una fecha")).toBeNull();
  });
});
