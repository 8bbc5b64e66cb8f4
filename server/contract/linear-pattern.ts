import { RE2JS } from "re2js";

// Patterns of the validation rules run on RE2 (re2js): matching time is linear in the input, whatever the pattern,
// so no crafted value can make a rule backtrack (the phone and e-mail rules once took seconds, issue 9).
// The characters handed to the engine are counted, so tests bound a rule's work in operations, not in wall-clock time.

let scannedCharacters = 0;

export const patternWork = {
  /** Characters handed to a pattern since the last reset. */
  get characters(): number {
    return scannedCharacters;
  },
  reset(): void {
    scannedCharacters = 0;
  },
};

export interface LinearPattern {
  readonly source: string;
  /** True when the whole value matches. */
  matches(value: string): boolean;
  /** True when some part of the value matches. */
  contains(value: string): boolean;
}

/** Every pattern source the rules compiled (tests check the browser's engine agrees with RE2 on each). */
export const compiledPatternSources: string[] = [];

/**
 * A pattern matched by RE2 (no backreferences or lookarounds: RE2 refuses them at compile time). The web build swaps
 * this module for linear-pattern.browser.ts (native RegExp, same sources): RE2 protects the server from crafted
 * input, while in the browser a user could only slow their own tab, and re2js would be 44 KB of the login page.
 */
export function linearPattern(source: string): LinearPattern {
  const compiled = RE2JS.compile(source);
  compiledPatternSources.push(source);
  return {
    source,
    matches(value) {
      scannedCharacters += value.length;
      return compiled.matches(value);
    },
    contains(value) {
      scannedCharacters += value.length;
      return compiled.matcher(value).find();
    },
  };
}
