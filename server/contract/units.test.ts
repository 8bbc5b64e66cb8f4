import { describe, expect, it } from "vitest";
import { readableUnit } from "./units.ts";

describe("readableUnit", () => {
  it("writes powers of ten as superscripts and the micro sign, as a person reads them", () => {
    expect(readableUnit("10^3/µL")).toBe("10³/µL");
    expect(readableUnit("10*3/uL")).toBe("10³/µL");
    expect(readableUnit("10^6/µL")).toBe("10⁶/µL");
  });

  it("leaves ordinary units alone", () => {
    for (const unit of ["mg/dL", "g/dL", "%", "µUI/mL", "U/L", "mmol/L", "ng/mL"]) expect(readableUnit(unit)).toBe(unit);
  });
});
