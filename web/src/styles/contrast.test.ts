import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Text colours set in the stylesheets must read on the white page (WCAG AA, 4.5:1 for normal text). Lighthouse found
// the bill status colours at 4.4:1 and 3.4:1 on the real my-bills page; this keeps every hard-coded text colour honest.

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

describe("text colours of the stylesheets", () => {
  const files = ["components.css", "panels.css", "forms.css", "layout.css", "auth.css"].map((name) => [
    name,
    readFileSync(new URL(`./${name}`, import.meta.url), "utf8"),
  ]);

  it("give every `color: #rrggbb` a contrast of at least 4.5:1 on its rule's background, or white (disabled controls are exempt)", () => {
    const weak: string[] = [];
    for (const [name, css] of files) {
      for (const [, selector, body] of css!.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
        if (selector!.includes(":disabled")) continue;
        const color = /(?:^|[;\s])color:\s*(#[0-9a-fA-F]{6})\b/.exec(body!)?.[1];
        if (!color) continue;
        const background = /background(?:-color)?:\s*(#[0-9a-fA-F]{6})\b/.exec(body!)?.[1] ?? "#ffffff";
        const ratio = contrast(color, background);
        if (ratio < 4.5) weak.push(`${name} ${selector!.trim()}: ${color} on ${background} (${ratio.toFixed(2)}:1)`);
      }
    }
    expect(weak).toEqual([]);
  });
});
