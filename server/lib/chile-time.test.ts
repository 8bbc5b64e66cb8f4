import { afterEach, describe, expect, it, vi } from "vitest";
import { chileDayEnd, chileDayStart, chileDeadline, chileToday, formatChileDay } from "./chile-time.ts";

describe("days in Chile's time", () => {
  it("starts a summer day at 03:00 UTC and a winter day at 04:00 UTC", () => {
    expect(chileDayStart("2026-03-01").toISOString()).toBe("2026-03-01T03:00:00.000Z");
    expect(chileDayStart("2026-07-01").toISOString()).toBe("2026-07-01T04:00:00.000Z");
  });

  it("ends a day where the next one starts, across the change of offset in April", () => {
    expect(chileDayEnd("2026-03-31").toISOString()).toBe("2026-04-01T03:00:00.000Z");
    expect(chileDayEnd("2026-04-05").toISOString()).toBe("2026-04-06T04:00:00.000Z");
  });
});

describe("a deadline in calendar days (issue 28: a patient's request is answered within 30)", () => {
  it("counts from the day of receipt in Santiago, and ends at the last instant of the 30th day", () => {
    // 2026-03-01 23:30 in Santiago is 2026-03-02 02:30 UTC: received on the 1st, due on the 31st.
    const due = chileDeadline(new Date("2026-03-02T02:30:00Z"), 30);
    expect(formatChileDay(due)).toBe("31-03-2026");
    expect(due.toISOString()).toBe("2026-04-01T02:59:59.999Z");
  });

  it("crosses the change of offset in April without losing or gaining a day", () => {
    const due = chileDeadline(new Date("2026-03-20T15:00:00Z"), 30);
    expect(formatChileDay(due)).toBe("19-04-2026");
    expect(due.toISOString()).toBe("2026-04-20T03:59:59.999Z");
  });
});

describe("today in Chile", () => {
  afterEach(() => vi.useRealTimers());

  it("turns at midnight in Santiago, even when asked again within the same minute", () => {
    vi.useFakeTimers({ now: new Date("2026-12-01T02:59:59.000Z") });
    expect(chileToday()).toBe("2026-11-30");
    vi.setSystemTime(new Date("2026-12-01T02:59:59.999Z"));
    expect(chileToday()).toBe("2026-11-30");
    vi.setSystemTime(new Date("2026-12-01T03:00:00.000Z"));
    expect(chileToday()).toBe("2026-12-01");
    // In winter (UTC-4) the day turns at 04:00 UTC.
    vi.setSystemTime(new Date("2026-07-01T03:59:59.999Z"));
    expect(chileToday()).toBe("2026-06-30");
    vi.setSystemTime(new Date("2026-07-01T04:00:00.000Z"));
    expect(chileToday()).toBe("2026-07-01");
  });

  it("of a given instant is that instant's day, whatever day it is now", () => {
    vi.useFakeTimers({ now: new Date("2026-12-01T12:00:00.000Z") });
    expect(chileToday()).toBe("2026-12-01");
    expect(chileToday(new Date("1995-01-15T15:00:00.000Z"))).toBe("1995-01-15");
    expect(chileToday()).toBe("2026-12-01");
  });
});
