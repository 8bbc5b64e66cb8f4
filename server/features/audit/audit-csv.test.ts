import { describe, expect, it } from "vitest";
import { csvCell } from "./audit-csv.ts";

describe("a CSV cell of the audit export", () => {
  it("turns what a spreadsheet would run as a formula into text", () => {
    for (const formula of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"]) expect(csvCell(formula).replace(/^"/, "")).toMatch(/^'/);
  });

  it("quotes cells with the separator, quotes or line breaks, doubling the quotes", () => {
    expect(csvCell('a;b"c')).toBe('"a;b""c"');
    expect(csvCell("línea\nnueva")).toBe('"línea\nnueva"');
    expect(csvCell("simple")).toBe("simple");
    expect(csvCell(null)).toBe("");
  });
});
