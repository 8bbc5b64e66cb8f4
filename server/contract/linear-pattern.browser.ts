import type { LinearPattern } from "./linear-pattern.ts";

// The web build's linearPattern (see the Vite alias in web/vite.config.ts): the same pattern sources on the browser's
// own RegExp engine. server/contract/linear-pattern-engines.test.ts checks both engines agree on every pattern.

export function linearPattern(source: string): LinearPattern {
  const whole = new RegExp(`^(?:${source})$`, "u");
  const anywhere = new RegExp(source, "u");
  return {
    source,
    matches: (value) => whole.test(value),
    contains: (value) => anywhere.test(value),
  };
}
