import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 45 §2: under 'Ver como', 'Mi cuenta' said it showed the patient's own account while 'Cuentas por pagar' showed
// Tomás's bills (and vanished for José). The page shows one person, the signed-in patient, and its notice says so.

const south = `http://clinicasur.localhost:${e2ePorts.portal}`;
const verComo = (page: Page) => page.getByLabel("Ver como:");
const pendingSummary = (page: Page) => page.locator("section.pending-summary:not(.pending-summary--loading)");
const pendingLine = (page: Page) => pendingSummary(page).locator("p");
const billCount = (line: string) => Number(/^Tiene (\d+) cuentas/.exec(line)?.[1] ?? NaN);

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("'Mi cuenta' under 'Ver como' shows the patient's own summary, as its notice says", async ({ page }) => {
      test.slow();
      await logIn(page, accounts.patient, "patient", south);
      await page.goto(`${south}/dashboard/account-settings`);
      await expect(pendingSummary(page)).toBeVisible();
      const own = (await pendingLine(page).textContent())!.trim();
      expect(own).toMatch(/Tiene \d+ cuentas hospitalarias pendientes/);

      for (const dependent of ["Tomás González Pérez", "José González Rojas"]) {
        await verComo(page).selectOption({ label: dependent });
        await expect(page.getByTestId("acting-for")).toHaveText(new RegExp(dependent));
        await page.goto(`${south}/dashboard/account-settings`);
        await expect(page.getByText(`Esta página muestra siempre su propia cuenta, no la de ${dependent}.`)).toBeVisible();
        await expect(pendingSummary(page)).toBeVisible();
        // Her own line, not the dependent's. The payment and bill specs, running beside this one on other workers, may
        // settle one of her bills or give one back to pending (an abandoned payment) in between: a line with her count,
        // or one or two off, is hers; Tomás's is far from it.
        const line = (await pendingLine(page).textContent())!.trim();
        if (line !== own) {
          expect(line).toMatch(/^Tiene \d+ cuentas hospitalarias pendientes\. Total por pagar: \$ [\d.]+$/);
          expect(Math.abs(billCount(line) - billCount(own))).toBeLessThanOrEqual(2);
        }
      }
    });
  });
}
