import { describe, expect, it } from "vitest";
import {
  chileToday,
  formatChileDateTime,
  formatChileDateTimeSeconds,
  formatDay,
  formatDaySlashed,
  formatUtcDay,
  lastTwelveMonths,
} from "./dates.ts";
import { formatTermsDate } from "@contract/terms-date.ts";

describe("chileToday", () => {
  it("is the day in Santiago, not in UTC nor on the device", () => {
    // 02:30 UTC on 1 March is still 28 February in Santiago (UTC-3 in summer).
    expect(chileToday(new Date("2026-03-01T02:30:00Z"))).toBe("2026-02-28");
    expect(chileToday(new Date("2026-03-01T03:30:00Z"))).toBe("2026-03-01");
    // Winter: UTC-4.
    expect(chileToday(new Date("2026-07-01T03:30:00Z"))).toBe("2026-06-30");
  });

  it("does not depend on the time zone of the browser", () => {
    const original = process.env.TZ;
    try {
      process.env.TZ = "Asia/Tokyo";
      expect(chileToday(new Date("2026-03-01T02:30:00Z"))).toBe("2026-02-28");
    } finally {
      process.env.TZ = original;
    }
  });
});

describe("lastTwelveMonths (SPEC §9)", () => {
  it("goes from the same day a year back to today in Chile", () => {
    expect(lastTwelveMonths(new Date("2026-11-25T15:00:00Z"))).toEqual({ from: "2025-11-25", to: "2026-11-25" });
    expect(lastTwelveMonths(new Date("2026-01-01T02:00:00Z"))).toEqual({ from: "2024-12-31", to: "2025-12-31" });
  });

  it("turns 29 February a year back into 28 February", () => {
    expect(lastTwelveMonths(new Date("2028-02-29T15:00:00Z"))).toEqual({ from: "2027-02-28", to: "2028-02-29" });
  });
});

describe("day and time formats", () => {
  it("writes the results' days dd/mm/aaaa", () => {
    expect(formatDaySlashed("2026-03-05")).toBe("05/03/2026");
    // Issue 33: what the screens show, dd-mm-aaaa (the audit trail to the second).
    expect(formatDay("2026-03-05")).toBe("05-03-2026");
    expect(formatChileDateTimeSeconds("2026-11-25T17:05:03Z")).toBe("25-11-2026 14:05:03");
  });

  it("shows a stored day dd-mm-aaaa in UTC, whatever the browser's zone", () => {
    expect(formatUtcDay("2026-02-01T00:00:00.000Z")).toBe("01-02-2026");
    expect(formatUtcDay("2025-12-31T23:59:59.000Z")).toBe("31-12-2025");
    expect(formatUtcDay("no es una fecha")).toBe("");
  });

  it("shows an instant dd-mm-aaaa HH:MM in Chile's time, 24 h", () => {
    expect(formatChileDateTime("2026-03-05T17:07:09.000Z")).toBe("05-03-2026 14:07");
    expect(formatChileDateTime("2026-07-01T03:30:00.000Z")).toBe("30-06-2026 23:30");
  });
});

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
