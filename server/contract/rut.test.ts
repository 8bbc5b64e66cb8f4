import { describe, expect, it } from "vitest";
import { formatRut, isValidRut, normalizeRut, rutCheckDigit } from "./rut.ts";

describe("RUT check digit (modulo 11)", () => {
  it.each([
    ["12345678", "5"],
    ["11111111", "1"],
    ["22222222", "2"],
    ["15555555", "6"],
    ["16789012", "1"],
    ["10000013", "K"],
    ["6", "K"],
    ["10000004", "0"],
    ["10000018", "0"],
    ["19", "1"],
  ])("computes %s → %s", (body, digit) => {
    expect(rutCheckDigit(body)).toBe(digit);
  });
});

describe("RUT validation", () => {
  it.each(["12.345.678-5", "12345678-5", "1.000.001-7", "10.000.013-K", "10.000.013-k", "10.000.004-0", "10.000.018-0", " 11.111.111-1 "])(
    "accepts %s",
    (rut) => expect(isValidRut(rut)).toBe(true),
  );
  it.each([
    ["a wrong check digit", "12.345.678-9"],
    ["K where 0 belongs", "10.000.004-K"],
    ["no hyphen", "123456785"],
    ["badly placed dots", "1.2345.678-5"],
    ["letters in the body", "12.34A.678-5"],
    ["an empty value", ""],
    ["a zero body", "0-0"],
    ["a check digit that is not 0-9 or K", "12.345.678-X"],
  ])("refuses %s", (_label, rut) => expect(isValidRut(rut)).toBe(false));

  it("normalises to digits, hyphen and an upper-case K, and formats with thousands dots", () => {
    expect(normalizeRut("10.000.013-k")).toBe("10000013-K");
    // Leading zeros do not change the check digit: one person, one stored RUT.
    expect(isValidRut("01.234.567-4")).toBe(true);
    expect(normalizeRut("01.234.567-4")).toBe(normalizeRut("1.234.567-4"));
    expect(normalizeRut("01.234.567-4")).toBe("1234567-4");
    expect(formatRut("12345678-5")).toBe("12.345.678-5");
    expect(formatRut("1000001-7")).toBe("1.000.001-7");
  });
});
