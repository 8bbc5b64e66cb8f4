import { describe, expect, it } from "vitest";
import { formatClp } from "./money.ts";

describe("formatClp (SPEC §9: '$ ' plus the es-CL number, pesos have no decimals)", () => {
  it("groups thousands with a dot", () => {
    expect(formatClp(1234567)).toBe("$ 1.234.567");
    expect(formatClp(45990)).toBe("$ 45.990");
    expect(formatClp(0)).toBe("$ 0");
    expect(formatClp(999)).toBe("$ 999");
  });

  it("never shows decimals", () => {
    expect(formatClp(1234.4)).toBe("$ 1.234");
    expect(formatClp(1234.6)).toBe("$ 1.235");
  });
});
