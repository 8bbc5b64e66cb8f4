import { expect, test, type Page } from "@playwright/test";
import { e2ePorts } from "./support/ports.ts";

// Issue 43: 'Ingresar con ClaveÚnica' on a clinic's /login, through the ClaveÚnica mock's own login page (a real
// OpenID Provider) and back, at a phone's and a desktop's width.

const clinicOrigin = `http://clinicasur.localhost:${e2ePorts.portal}`;
const CLAVEUNICA_PASSWORD = "ClaveUnica2026";

async function signInAtClaveUnica(page: Page, run: string) {
  await expect(page.getByLabel("RUN")).toBeVisible();
  await page.getByLabel("RUN").fill(run);
  await page.getByLabel("ClaveÚnica").fill(CLAVEUNICA_PASSWORD);
  await page.getByRole("button", { name: "Continuar" }).click();
}

for (const width of [375, 1280]) {
  test.describe(`ClaveÚnica at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("the button is offered in ClaveÚnica's blue under the untouched Rut and password form, and fits the screen", async ({ page }) => {
      await page.goto(`${clinicOrigin}/login`);
      await expect(page.getByLabel("Rut")).toBeVisible();
      await expect(page.getByLabel("Contraseña", { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "Ingresar", exact: true })).toBeVisible();
      const button = page.getByRole("link", { name: "Ingresar con ClaveÚnica" });
      await expect(button).toBeVisible();
      await expect(button).toHaveCSS("background-color", "rgb(15, 105, 196)");
      await expect(button).toHaveCSS("color", "rgb(255, 255, 255)");
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    });

    test("a returning patient signs in at ClaveÚnica and lands signed in on the page they were going to", async ({ page }) => {
      await page.goto(`${clinicOrigin}/login?next=${encodeURIComponent("/dashboard/laboratory")}`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await expect(page).toHaveURL(new RegExp(`^http://localhost:${e2ePorts.mocksHttp}/claveunica/`));
      await signInAtClaveUnica(page, "12.345.678-5");
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/laboratory`);
      await expect(page.getByRole("navigation", { name: "Menú principal" })).toBeVisible();
      // The session is the portal's own: a reload keeps it.
      await page.reload();
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/laboratory`);
    });

    test("a RUN without an account comes back to /login with what to do, and the Rut and password form still there", async ({ page }) => {
      await page.goto(`${clinicOrigin}/login`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await signInAtClaveUnica(page, "9.876.543-3");
      await expect(page).toHaveURL(`${clinicOrigin}/login?claveunica=sin-cuenta`);
      await expect(page.getByRole("alert")).toHaveText(
        "Su RUN no tiene una cuenta en este portal. Pida a la clínica que le cree una. Si ya tiene una cuenta con otro Rut, ingrese con su Rut y contraseña.",
      );
      await expect(page.getByLabel("Rut")).toBeVisible();
      // Nobody was signed in: the dashboard sends back to the login.
      await page.goto(`${clinicOrigin}/dashboard/account-settings`);
      await expect(page).toHaveURL(`${clinicOrigin}/login`);
    });
  });
}
