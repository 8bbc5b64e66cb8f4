import { describe, expect, it } from "vitest";
import { formatBillDate, formatClp } from "./bill-format.ts";

describe("bill display rules", () => {
  it("shows amounts as '$ ' and the es-CL number", () => {
    expect(formatClp(1234567)).toBe("$ 1.234.567");
    expect(formatClp(0)).toBe("$ 0");
    expect(formatClp(999)).toBe("$ 999");
  });

  it("shows the bill's day DD-MM-YYYY in UTC, whatever the browser's zone", () => {
    expect(formatBillDate("2026-02-01T00:00:00.000Z")).toBe("01-02-2026");
    expect(formatBillDate("2025-12-31T23:59:59.000Z")).toBe("31-12-2025");
  });
});
