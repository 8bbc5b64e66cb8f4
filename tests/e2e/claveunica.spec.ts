import { expect, test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { claveUnicaEnrolled, claveUnicaEnrolledSecret, claveUnicaFirstLogin } from "./support/claveunica-fixtures.ts";
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

    test("a patient with a second factor gives their code after ClaveÚnica before the portal opens; a wrong code is refused", async ({
      page,
    }) => {
      await page.goto(`${clinicOrigin}/login?next=${encodeURIComponent("/dashboard/laboratory")}`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await signInAtClaveUnica(page, claveUnicaEnrolled[width as 375 | 1280].rut);
      const code = page.getByLabel("Código de verificación");
      await expect(code).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Menú principal" })).toHaveCount(0);
      await code.fill("000000");
      await page.getByRole("button", { name: "Verificar" }).click();
      await expect(page.getByRole("alert")).toBeVisible();
      await code.fill(await generate({ secret: claveUnicaEnrolledSecret }));
      await page.getByRole("button", { name: "Verificar" }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/laboratory`);
      await expect(page.getByRole("navigation", { name: "Menú principal" })).toBeVisible();
    });

    test("a first-login patient accepts the terms and completes the data ClaveÚnica filled in, and is never asked to change the password", async ({
      page,
    }) => {
      const patient = claveUnicaFirstLogin[width as 375 | 1280];
      await page.goto(`${clinicOrigin}/login`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await signInAtClaveUnica(page, patient.rut);
      await expect(page).toHaveURL(`${clinicOrigin}/accept-tyc`);
      await page.getByRole("button", { name: "Continuar" }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/account-settings`);

      // Told to complete the data, not welcomed to a password change.
      const complete = page.getByRole("dialog", { name: "Complete sus datos" });
      await expect(complete).toBeVisible();
      await expect(page.getByRole("dialog", { name: "¡Bienvenido al Portal Paciente!" })).toHaveCount(0);
      await complete.getByRole("button", { name: "Entendido" }).click();
      await expect(page.getByRole("button", { name: /^Cambiar contraseña/ })).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("button", { name: /^Datos personales/ })).toHaveAttribute("aria-expanded", "true");

      // The empty fields carry ClaveÚnica's names, for the patient to confirm.
      await expect(page.getByRole("note")).toHaveText(
        "Completamos los campos vacíos con sus datos de ClaveÚnica. Revíselos y presione 'Guardar datos'.",
      );
      await expect(page.getByLabel("Primer nombre")).toHaveValue("Valentina");
      await expect(page.getByLabel("Segundo nombre (opcional)")).toHaveValue("Isabel");
      await expect(page.getByLabel("Apellido paterno")).toHaveValue("Rojas");
      await expect(page.getByLabel("Apellido materno")).toHaveValue("Muñoz");
      // Her own e-mail stays: ClaveÚnica's fills only what is empty.
      await expect(page.getByLabel("Correo electrónico")).toHaveValue(patient.email);
      await page.getByLabel("Teléfono").fill("9 8765 4321");
      await page.getByLabel("Fecha de nacimiento").fill("1992-04-12");
      await page.getByRole("button", { name: "Guardar datos" }).click();
      const saved = page.getByRole("dialog", { name: "Se han guardado tus datos satisfactoriamente" });
      await expect(saved).toBeVisible();
      await saved.getByRole("button", { name: "Continuar" }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/scheduling`);
      await expect(page.locator(".app-header__name")).toHaveText("Valentina Rojas Muñoz");
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });

    test("'Cerrar sesión' after ClaveÚnica offers to close ClaveÚnica's session too, which brings the patient back to /login", async ({
      page,
    }) => {
      await page.goto(`${clinicOrigin}/login`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await signInAtClaveUnica(page, "12.345.678-5");
      await expect(page.getByRole("navigation", { name: "Menú principal" })).toBeVisible();
      await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/login?salida=claveunica`);
      const offer = page.getByRole("region", { name: "Cerró su sesión en el portal" });
      await expect(offer).toContainText("Su sesión de ClaveÚnica sigue abierta en este navegador.");
      await offer.getByRole("link", { name: "Cerrar también su sesión en ClaveÚnica" }).click();
      await expect(page).toHaveURL(new RegExp(`^http://localhost:${e2ePorts.mocksHttp}/claveunica/`));
      await page.getByRole("button", { name: "Sí, cerrar sesión" }).click();
      await expect(page).toHaveURL(new RegExp(`^${clinicOrigin}/login`));
      // ClaveÚnica's session is over: its button asks for the RUN and ClaveÚnica again.
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await expect(page.getByLabel("RUN")).toBeVisible();
    });

    test("'Cerrar sesión' after the Rut and password offers nothing about ClaveÚnica", async ({ page }) => {
      await page.goto(`${clinicOrigin}/login`);
      await page.getByLabel("Rut").fill("12.345.678-5");
      await page.getByLabel("Contraseña", { exact: true }).fill("Paciente2026");
      await page.getByRole("button", { name: "Ingresar", exact: true }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/dashboard/account-settings`);
      await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
      await expect(page).toHaveURL(`${clinicOrigin}/login`);
      await expect(page.getByRole("link", { name: "Ingresar con ClaveÚnica" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Cerró su sesión en el portal" })).toHaveCount(0);
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
