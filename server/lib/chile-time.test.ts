import { describe, expect, it } from "vitest";
import { chileDayEnd, chileDayStart } from "./chile-time.ts";

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
