import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 26 (Lighthouse on every patient screen): content that appears above a page after it first shows pushes the
// page down (layout shift, a quarter of Lighthouse's performance score, and a misplaced tap on a phone). María
// (12.345.678-5) cares for two dependents, so 'Ver como:' tops her patient pages: it must be there when the page's
// heading first shows, not arrive with its own answer a moment later.

const south = `http://clinicasur.localhost:${e2ePorts.portal}`;

test.use({ viewport: { width: 375, height: 667 } });

for (const path of ["/dashboard/my-bills", "/dashboard/laboratory", "/dashboard/account-settings"]) {
  test(`'Ver como:' is already above the page when ${path} first shows its heading (a full load)`, async ({ page }) => {
    await logIn(page, accounts.patient, "patient", south);
    // Notes, at the first moment the page's heading is in the document, whether the bar is there too.
    await page.addInitScript(() => {
      const record = () => {
        if (!document.querySelector("main h1")) return false;
        (window as unknown as { barWithHeading: boolean }).barWithHeading = document.querySelector("#ver-como") !== null;
        return true;
      };
      new MutationObserver((_changes, observer) => record() && observer.disconnect()).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${south}${path}`);
    await expect(page.locator("main h1")).toBeVisible();
    await expect(page.getByLabel("Ver como:")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { barWithHeading?: boolean }).barWithHeading)).toBe(true);
  });
}
