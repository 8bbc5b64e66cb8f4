import { expect, test, type Locator, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 33: an action on a result that fails (open the viewer, open the report, e-mail the report) is told in the
// page beside that result, in SPEC §8's words, and stays there with 'Reintentar' after the 3-second toast is gone.

const SPEC_TOAST = "Hubo un error al procesar la solicitud, por favor intente más tarde";

/** Where the message is told: the row right under the button's row (table, ≥ 1024 px), or the button's card. */
function besideOf(page: Page, button: Locator, wide: boolean): Locator {
  return wide
    ? page.locator("tbody tr").filter({ has: button }).locator("xpath=following-sibling::tr[1]")
    : page.locator("article.result-card").filter({ has: button });
}

async function expectToldBeside(page: Page, result: Locator, what: string): Promise<Locator> {
  const message = result.locator(".action-failure");
  await expect(message).toHaveText(new RegExp(`^${SPEC_TOAST}\\. ${what.replace(/\./g, "\\.")}\\s*Reintentar$`));
  await expect(message).toBeInViewport();
  await expect(page.locator(".toast")).toHaveText(SPEC_TOAST);
  await expect(page.locator(".toast")).toHaveCount(0, { timeout: 6_000 });
  await expect(message).toBeVisible();
  return message;
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  const wide = viewport.width >= 1024;
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a viewer that cannot be opened is told beside the study, and 'Reintentar' opens it once the service answers", async ({
      page,
    }) => {
      await logIn(page, accounts.patient);
      let failing = true;
      await page.route("**/trpc/imaging.viewerUrl**", (route) => (failing ? route.abort() : route.continue()));
      await page.goto("/dashboard/imaging");
      const open = page.getByRole("button", { name: "Ver imágenes del examen IM1234567801" });
      await open.click();
      const message = await expectToldBeside(page, besideOf(page, open, wide), "No se pudo abrir el visor del examen IM1234567801.");
      await expect(page.getByRole("dialog")).toHaveCount(0);

      failing = false;
      await message.getByRole("button", { name: "Reintentar" }).click();
      const dialog = page.getByRole("dialog");
      if (!wide) await dialog.getByRole("button", { name: "Continuar" }).click();
      await expect(dialog.locator("iframe")).toHaveAttribute("src", /StudyInstanceUIDs=/);
      await expect(page.locator(".action-failure")).toHaveCount(0);
    });

    test("a report that cannot be opened is told beside the study, and its blank tab is closed", async ({ page }) => {
      await logIn(page, accounts.patient);
      await page.route("**/trpc/imaging.reportUrl**", (route) => route.abort());
      await page.goto("/dashboard/imaging");
      const report = page.getByRole("button", { name: "Ver informe del examen IM1234567801" });
      const popupPromise = page.waitForEvent("popup");
      await report.click();
      const popup = await popupPromise;
      await expectToldBeside(page, besideOf(page, report, wide), "No se pudo abrir el informe del examen IM1234567801.");
      expect(popup.isClosed()).toBe(true);
    });

    test("a laboratory report that cannot be e-mailed is told beside its order, with no 'Email enviado'", async ({ page }) => {
      await logIn(page, accounts.patient);
      await page.route("**/trpc/reports.mail**", (route) => route.abort());
      await page.goto("/dashboard/laboratory");
      const send = page.getByRole("button", { name: "Enviar por email el informe de la orden 1234567801" });
      await send.click();
      await expectToldBeside(page, besideOf(page, send, wide), "No se pudo enviar a su correo el informe de la orden 1234567801.");
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });
  });
}
