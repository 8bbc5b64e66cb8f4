import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 33, point 3: 'Mi cuenta', the landing after login, starts with the newest laboratory and imaging results, each
// with its day (dd-mm-aaaa) and a link to its page. The failing providers' side is in providers-down.spec.ts.

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px, 'Mi cuenta' shows the day of the newest results, and the laboratory page lists an order of that day`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await logIn(page, accounts.patient);
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    const summary = page.getByRole("region", { name: "Resultados recientes" });
    await expect(summary).toContainText(/Imagenología: último resultado del \d{2}-\d{2}-\d{4}\./);
    const laboratory = summary.getByRole("listitem").filter({ hasText: "Laboratorio" });
    await expect(laboratory).toHaveText(/^Laboratorio: último resultado del \d{2}-\d{2}-\d{4}\. Ver exámenes de laboratorio$/);
    const day = /(\d{2}-\d{2}-\d{4})/.exec((await laboratory.textContent()) ?? "")![1]!;

    await laboratory.getByRole("link", { name: "Ver exámenes de laboratorio" }).click();
    await expect(page).toHaveURL(/\/dashboard\/laboratory$/);
    const orders = page.getByLabel("Órdenes de laboratorio");
    await expect(
      orders
        .getByRole("button", { name: /prestaciones de la orden/ })
        .filter({ hasText: day })
        .first(),
    ).toBeVisible();
    // That order is a validated one, not one still 'Pendiente Validación' (issue 45).
    // A card on a phone, a table row on a wide screen.
    const ofThatDay = orders.locator("article.result-card, tbody tr").filter({ hasText: day });
    await expect(ofThatDay.filter({ hasText: "Validada" }).first()).toBeVisible();
    await expect(ofThatDay.filter({ hasText: "Pendiente Validación" })).toHaveCount(0);
  });
}
