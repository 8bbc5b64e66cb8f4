import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 33, point 5: every staff table fits a 1280 px screen without sideways scrolling, its actions visible.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
test.use({ viewport: { width: 1280, height: 800 } });

/** How many pixels the table's box scrolls sideways (0 when it fits), and the page's own sideways overflow. */
async function sideways(page: Page, table: string) {
  return page.evaluate((name) => {
    const element = document.querySelector(`table[aria-label="${name}"]`);
    const scroller = element?.parentElement;
    return {
      table: scroller ? scroller.scrollWidth - scroller.clientWidth : -1,
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  }, table);
}

test("the staff bills, users and audit tables fit 1280 px with their actions visible", async ({ page }) => {
  await logIn(page, accounts.admin, "staff", southPortal);
  await page.goto(`${southPortal}/admin/admin-bills`);
  await expect(page.getByRole("button", { name: /^Modificar cuenta/ }).first()).toBeVisible();
  expect(await sideways(page, "Cuentas hospitalarias")).toEqual({ table: 0, page: 0 });
  await expect(page.getByRole("button", { name: /^Modificar cuenta/ }).first()).toBeInViewport();

  await page.goto(`${southPortal}/admin/admin-users`);
  const users = page.locator("table").first();
  await expect(users).toBeVisible();
  const usersName = (await users.getAttribute("aria-label")) ?? "";
  expect(await sideways(page, usersName)).toEqual({ table: 0, page: 0 });

  await page.goto(`${southPortal}/admin/audit`);
  await expect(page.getByRole("table", { name: "Eventos de auditoría" })).toBeVisible();
  expect(await sideways(page, "Eventos de auditoría")).toEqual({ table: 0, page: 0 });
});
