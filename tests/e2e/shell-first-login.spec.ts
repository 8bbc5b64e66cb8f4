import { expect, test } from "@playwright/test";
import { logIn, storedKeys } from "./shell-helpers.ts";
import { createFreshAccount } from "./support/accounts.ts";

// Each test creates its own first-login patient: the seeded one belongs to the account-settings journey.
test.describe("first login of a patient: terms and conditions", () => {
  test("unchecking the terms and pressing Continuar clears the storage and returns to the login", async ({ page }) => {
    await logIn(page, await createFreshAccount());
    await expect(page).toHaveURL(/\/accept-tyc$/);
    const checkbox = page.getByLabel("He leído y acepto los términos y condiciones");
    await expect(checkbox).toBeChecked();
    await checkbox.uncheck();
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });
  });

  test("accepting the terms stores the date and continues to the account settings", async ({ page }) => {
    await logIn(page, await createFreshAccount());
    await expect(page).toHaveURL(/\/accept-tyc$/);
    const pdfLink = page.getByRole("link", { name: /Ver términos y condiciones/ });
    await expect(pdfLink).toHaveAttribute("href", /terminos-condiciones\.pdf$/);
    await expect(pdfLink).toHaveAttribute("target", "_blank");
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    const dateTyc = await page.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { dateTyc?: string }).dateTyc);
    expect(dateTyc).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test("the terms screen needs a valid session", async ({ page }) => {
    await page.goto("/accept-tyc");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the terms come before the portal-type check: a new patient opening a staff page is sent to the terms", async ({ page }) => {
    await logIn(page, await createFreshAccount());
    await expect(page).toHaveURL(/\/accept-tyc$/);
    await page.goto("/admin/admin-users");
    await expect(page).toHaveURL(/\/accept-tyc$/);
    await expect(page.getByRole("dialog", { name: "Acceso denegado" })).toHaveCount(0);
  });
});
