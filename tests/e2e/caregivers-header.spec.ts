import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 45, low list: under 'Ver como', the header's 'Viendo a …' lay over the portal's title at 375 px ('PORTAL P' and
// 'Hospi…' showing beside it) and cut the name ('Tomás Gonz…'). Nothing in the header lies under it, and the whole
// name shows, on a phone and at 1280 px.

const south = `http://clinicasur.localhost:${e2ePorts.portal}`;

/** What of the header's brand (its logo, the drawn text of its titles) 'Viendo a …' lies over. */
function overlapped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const acting = document.querySelector("[data-testid='acting-for']")!.getBoundingClientRect();
    const hits = (box: DOMRect) =>
      box.width > 0 &&
      box.height > 0 &&
      box.left < acting.right &&
      acting.left < box.right &&
      box.top < acting.bottom &&
      acting.top < box.bottom;
    const found: string[] = [];
    for (const logo of document.querySelectorAll<HTMLElement>(".app-header__brand img"))
      if (hits(logo.getBoundingClientRect())) found.push(logo.getAttribute("alt") ?? "logo");
    // The text as drawn (it may run past its own box), not the box of the element that holds it.
    for (const part of document.querySelectorAll<HTMLElement>(".app-header__brand span")) {
      if (getComputedStyle(part).visibility === "hidden") continue;
      const range = document.createRange();
      range.selectNodeContents(part);
      if ([...range.getClientRects()].some(hits)) found.push(part.textContent?.trim() ?? "");
    }
    return found;
  });
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px 'Viendo a' covers nothing in the header and shows the whole name`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await logIn(page, accounts.patient, "patient", south);
    await page.goto(`${south}/dashboard/account-settings`);
    await page.getByLabel("Ver como:").selectOption({ label: "Tomás González Pérez" });
    const acting = page.getByTestId("acting-for");
    await expect(acting).toContainText("Tomás González Pérez");
    await expect(page.locator(".app-header__logo")).toBeVisible();
    expect(await overlapped(page)).toEqual([]);
    const name = acting.locator(".app-header__acting-name");
    expect(
      await name.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight),
    ).toBe(true);
    const box = (await acting.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // The page's own title stays in view below the header, not under it.
    const header = (await page.locator(".app-header").boundingBox())!;
    const title = (await page.getByRole("heading", { name: "Mi cuenta", level: 1 }).boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(header.y + header.height);
  });
}
