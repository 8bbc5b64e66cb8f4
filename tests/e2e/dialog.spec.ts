import { expect, test, type Locator, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// The one dialog (web/src/components/ui/Dialog.tsx, issue 25), through two overlays that use it: the imaging viewer
// and the global modal. Each takes the focus, keeps it inside while Tab and Shift+Tab go round, closes on Escape and
// gives the focus back to the button that opened it.

async function openImaging(page: Page) {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/imaging");
  await expect(page.getByRole("heading", { name: "Exámenes de imagenología" })).toBeVisible();
}

/** Whether the focused element is inside the dialog. */
const focusIsInside = (dialog: Locator) => dialog.evaluate((element) => element.contains(document.activeElement));

async function expectFocusKeptInside(page: Page, dialog: Locator, presses: number) {
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press("Tab");
    expect(await focusIsInside(dialog)).toBe(true);
  }
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusIsInside(dialog)).toBe(true);
  }
}

test("the imaging viewer takes the focus, keeps it inside, closes on Escape and gives it back to its button", async ({ page }) => {
  // At 375 px the viewer first shows its notice with 'Volver' and 'Continuar' (no frame to tab into).
  await page.setViewportSize({ width: 375, height: 740 });
  await openImaging(page);
  const opener = page.getByRole("button", { name: "Ver imágenes del examen IM1234567801" });
  await opener.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Atención: Se recomienda acceder al visor de imágenes desde un PC o laptop")).toBeVisible();

  await expect(dialog.getByRole("button", { name: "Continuar" })).toBeFocused();
  await expectFocusKeptInside(page, dialog, 5);
  await expect(page.locator("body")).toHaveCSS("overflow", "hidden");

  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expect(page.locator("body")).not.toHaveCSS("overflow", "hidden");
});

test("the global modal takes the focus, keeps it inside, closes on Escape and gives it back to its button", async ({ page }) => {
  await openImaging(page);
  const opener = page.getByRole("button", { name: "Enviar al correo el informe del examen IM1234567802" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Email enviado" });
  await expect(dialog).toBeVisible();

  await expect(dialog.getByRole("button", { name: "Entendido" })).toBeFocused();
  await expectFocusKeptInside(page, dialog, 3);

  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(opener).toBeFocused();
});
