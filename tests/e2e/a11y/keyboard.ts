import { expect, type Locator, type Page } from "@playwright/test";

// Keyboard-only steps of the accessibility journeys (issue 29): Tab until a control has the focus, checking at every
// stop that the focus can be seen (WCAG 2.4.7).

/** How the focused element shows its focus: its computed outline, or a box shadow standing in for one. */
export function focusIndicator(page: Page): Promise<{ tag: string; name: string; outline: string; boxShadow: string } | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline =
      style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? `${style.outlineWidth} ${style.outlineStyle}` : "";
    return {
      tag: element.tagName.toLowerCase(),
      name: (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 60),
      outline,
      boxShadow: style.boxShadow === "none" ? "" : style.boxShadow,
    };
  });
}

/** The focused element shows a ring (outline of 2 px or more, or a box shadow). */
export async function expectFocusVisible(page: Page): Promise<void> {
  const indicator = await focusIndicator(page);
  expect(indicator, "something has the focus").not.toBeNull();
  expect(Boolean(indicator!.outline || indicator!.boxShadow), `focus ring on <${indicator!.tag}> '${indicator!.name}'`).toBe(true);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, checking the focus ring at every stop on the way. */
export async function tabTo(page: Page, target: Locator, { max = 60, backwards = false, checkRing = true } = {}): Promise<void> {
  // The page must have drawn the target before the first Tab: pressed while the app still renders (a slow CI run, right
  // after page.goto), the Tab left the focus on the body and the ring check failed on nothing.
  await expect(target).toBeAttached();
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    if (checkRing) await expectFocusVisible(page);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${max} presses`);
}

/** Whether the focus is inside the element. */
export const focusIsInside = (container: Locator) => container.evaluate((element) => element.contains(document.activeElement));

/** Tab and Shift+Tab `presses` times each: the focus never leaves the dialog, and the ring shows. */
export async function expectFocusTrapped(page: Page, dialog: Locator, presses: number): Promise<void> {
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let press = 0; press < presses; press++) {
      await page.keyboard.press(key);
      expect(await focusIsInside(dialog), `${key} ${press + 1} stays in the dialog`).toBe(true);
      await expectFocusVisible(page);
    }
  }
}
