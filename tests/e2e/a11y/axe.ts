import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// axe-core over one screen state at both widths of the suite (1280 px desktop, 375 px phone), issue 29. Only serious
// and critical violations fail; the rules axe leaves off by default that matter to the portal's patients are turned
// on by name: the experimental ones, WCAG 2.5.3 'Label in Name' and WCAG 2.2's target size.

const extraRules = [
  "label-content-name-mismatch",
  "target-size",
  "css-orientation-lock",
  "focus-order-semantics",
  "hidden-content",
  "p-as-heading",
  "table-fake-caption",
  "td-has-header",
];

export const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

const describe = (violation: Violation) =>
  `${violation.id} (${violation.impact}): ${violation.help} → ${violation.nodes
    .slice(0, 3)
    .map((node) => node.target.join(" "))
    .join(" | ")}`;

/** Two frames, so a layout that follows the viewport (matchMedia) has rendered. */
export const settled = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * The serious and critical violations of the page as it is now. Only the portal's own document: the frames hold the
 * mocks' pages standing in for the clinic's own scheduling and viewer sites, not the portal's (the frame elements
 * themselves, their titles included, are checked). Hence axe's legacy runner in the page with `iframes: false`: the
 * default runner also analyses every frame and then gathers the results in a new blank page, axe injected again
 * there, on every call — the same violations of the portal's document for a third less CPU (the axe-*.spec.ts files:
 * 103 → 71 CPU-s, issue 46 §5). Only violations are collected (`resultTypes`): the passes were never read.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .options({
      rules: Object.fromEntries(extraRules.map((rule) => [rule, { enabled: true }])),
      iframes: false,
      resultTypes: ["violations"],
    })
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ ...violation, nodes: violation.nodes.filter((node) => node.target.length === 1) }))
    .filter((violation) => violation.nodes.length > 0)
    .map(describe);
}

/**
 * Checks the screen state at 1280 px and at 375 px (the viewport changes in place: one page load per state) and
 * leaves the page at the width it had. Soft, so one walk through many screens reports every one of them.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of widths) {
    await page.setViewportSize(size);
    await settled(page);
    expect.soft(await seriousViolations(page), `${screen} at ${size.width} px`).toEqual([]);
  }
  if (before) await page.setViewportSize(before);
  await settled(page);
}
