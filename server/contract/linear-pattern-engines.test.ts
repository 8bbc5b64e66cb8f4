import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compiledPatternSources, linearPattern as re2Pattern } from "./linear-pattern.ts";
import { linearPattern as browserPattern } from "./linear-pattern.browser.ts";
import "./rut.ts";
import "./validation.ts";

// The web runs the contract's rules on native RegExp, the server on RE2: they must accept exactly the same values.

const samples = [
  "",
  "a",
  "A",
  "9",
  "12.345.678-5",
  "12345678-K",
  "1.234-5",
  "María José",
  "O'Higgins",
  "x@y.cl",
  "a@b",
  "+56 9 1234",
  "+56-9-1234",
  "2026-11-23",
  "2026-1-3",
  "ñandú",
  "Ångström",
  "ß",
  "\u0000",
  " ",
  "@@..",
];

describe("the browser's pattern engine and RE2", () => {
  it("compile every pattern the rules use", () => {
    expect(compiledPatternSources.length).toBeGreaterThanOrEqual(9);
  });

  it("agree on every pattern, for hand-picked and random values", () => {
    for (const source of new Set(compiledPatternSources)) {
      const re2 = re2Pattern(source);
      const browser = browserPattern(source);
      const agree = (value: string) => {
        expect(browser.matches(value), `${source} matches ${JSON.stringify(value)}`).toBe(re2.matches(value));
        expect(browser.contains(value), `${source} contains ${JSON.stringify(value)}`).toBe(re2.contains(value));
      };
      samples.forEach(agree);
      fc.assert(
        fc.property(fc.string({ unit: "grapheme-composite", maxLength: 20 }), (value) => agree(value)),
        { numRuns: 300 },
      );
      fc.assert(
        fc.property(fc.stringMatching(/^[\d.\-kK+@a-zA-Z ]{0,14}$/), (value) => agree(value)),
        { numRuns: 300 },
      );
    }
  });
});
