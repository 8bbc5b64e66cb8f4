import { describe, expect, it } from "vitest";
import { forbiddenCharactersMessage, inputProblem, MAX_INPUT_DEPTH, tooDeepMessage } from "./input-guard.ts";

describe("the input guard", () => {
  it("finds NUL characters in values and keys at any allowed depth", () => {
    expect(inputProblem({ a: [{ b: "x\u0000" }] })).toBe(forbiddenCharactersMessage);
    expect(inputProblem({ ["k\u0000"]: 1 })).toBe(forbiddenCharactersMessage);
    expect(inputProblem({ a: ["ñandú 😀", 1, true, null] })).toBeNull();
  });

  it("refuses nesting beyond the limit without recursing (100,000 levels do not overflow the stack)", () => {
    let deep: unknown = "hoja";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(inputProblem(deep)).toBe(tooDeepMessage);
    let allowed: unknown = "hoja";
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) allowed = [allowed];
    expect(inputProblem(allowed)).toBeNull();
  });
});
