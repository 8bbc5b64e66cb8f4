import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { patternWork } from "./linear-pattern.ts";
import {
  adminEditEmailSchema,
  birthDateSchema,
  createUserEmailSchema,
  digitsOnlySchema,
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  optionalNameSchema,
  personNameSchema,
  phoneSchema,
  rutSchema,
} from "./validation.ts";

// The phone and e-mail rules once backtracked for seconds on crafted input (issue 9, findings 1 and 2). Work is
// counted in characters handed to the pattern engine (RE2, linear in its input), never in wall-clock time: a rule
// may hand a pattern at most its length limit, and nothing at all once the length check failed.

const rules: Array<[string, z.ZodType, number]> = [
  ["rut", rutSchema, 20],
  ["loginPassword", loginPasswordSchema, 200],
  ["newPassword", newPasswordSchema, 200],
  ["personName", personNameSchema, 80],
  ["optionalName", optionalNameSchema, 80],
  ["email", emailSchema, 254],
  ["adminEditEmail", adminEditEmailSchema, 254],
  ["createUserEmail", createUserEmailSchema, 254],
  ["phone", phoneSchema, 20],
  ["birthDate", birthDateSchema, 30],
  ["digitsOnly", digitsOnlySchema, 20],
];

const megabyte = 1024 * 1024;
const pathological: Array<[string, string]> = [
  ["digits then a letter (phone ReDoS)", "1".repeat(32) + "a"],
  ["digit runs with hyphens", "1-".repeat(40) + "a"],
  ["e-mail dots then @ (quadratic)", "a@" + "a.".repeat(60_000) + "@"],
  ["1 MB of digits then a letter", "9".repeat(megabyte) + "x"],
  ["1 MB of letters", "a".repeat(megabyte)],
  ["1 MB of spaces", " ".repeat(megabyte)],
  ["1 MB alternating @ and dots", "@.".repeat(megabyte / 2)],
  ["long RUT-looking run", "1.".repeat(5_000) + "-K"],
  ["unicode and NUL", "é\u0000ñ😀".repeat(10_000)],
];

describe("every validation rule runs in linear time, length first", () => {
  for (const [name, schema, maxLength] of rules) {
    it(`${name}: pathological inputs cost at most its length limit in pattern work`, () => {
      for (const [, input] of pathological) {
        patternWork.reset();
        schema.safeParse(input);
        expect(patternWork.characters).toBeLessThanOrEqual(4 * maxLength);
      }
    });
  }

  it("a value over the length limit never reaches a pattern", () => {
    patternWork.reset();
    phoneSchema.safeParse("1".repeat(21));
    emailSchema.safeParse("a".repeat(300) + "@x.cl");
    expect(patternWork.characters).toBe(0);
  });
});
