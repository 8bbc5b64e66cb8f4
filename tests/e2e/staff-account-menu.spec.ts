import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 42, point 9: staff reach their 'Mi cuenta' (second factor, active sessions with 'Cerrar las demás sesiones',
// password) from the staff menu, on a phone and on a desktop, instead of typing its address.

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`staff 'Mi cuenta' at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an administrator opens 'Mi cuenta' from the menu and finds the second factor, the sessions and the password", async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await logIn(page, accounts.admin, "staff");
      await expect(page).toHaveURL(/\/admin\/admin-users$/);
      const expand = page.getByRole("button", { name: "Expandir menú" });
      if (await expand.isVisible()) await expand.click();
      await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Mi cuenta" }).click();

      await expect(page).toHaveURL(/\/admin\/account$/);
      await expect(page.getByRole("heading", { name: "Mi cuenta" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
      // 'Cerrar las demás sesiones' shows only when another session is open, which depends on the worker's earlier tests.
      await expect(page.getByRole("heading", { name: "Sesiones activas" })).toBeVisible();

      await page.getByRole("link", { name: "Cambiar contraseña" }).click();
      await expect(page).toHaveURL(/\/admin\/change-password$/);
      await expect(page.getByRole("heading", { name: "Cambiar contraseña" })).toBeVisible();
      // The menu keeps 'Mi cuenta' marked on the password page.
      if (await expand.isVisible()) await expand.click();
      await expect(page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Mi cuenta" })).toHaveClass(
        /sidebar__item--selected/,
      );
    });
  });
}
