import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 33, "one failure, one message, in one place": the login's failures are told by its banner alone, and where
// SPEC §8 asks for a toast (the recovery's save), the lasting message in the form says the toast's own words. A toast
// still showing when a login fails (the session that expired) gives way to the banner.

const LOGIN_FAILED = "El Rut o Contraseña ingresados son inválidos";

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a wrong password is told once, by the login's banner, and no toast", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Rut").fill(accounts.patient.rut);
      await page.getByLabel("Contraseña", { exact: true }).fill("Incorrecta2026");
      await page.getByRole("button", { name: "Ingresar" }).click();
      await expect(page.getByRole("alert")).toHaveText(LOGIN_FAILED);
      await expect(page.locator(".toast")).toHaveCount(0);
    });

    test("after 'Su sesión expiró', a failed login's banner takes the place of the toast", async ({ page }) => {
      await logIn(page, accounts.patient);
      // The laboratory list answers 401, as for a token voided elsewhere: the session ends with its toast.
      await page.route("**/trpc/laboratory.orders**", (route) =>
        route.fulfill({
          status: 401,
          contentType: "application/json",
          body: JSON.stringify({ error: { message: "Sesión inválida", code: -32001, data: { code: "UNAUTHORIZED", httpStatus: 401 } } }),
        }),
      );
      await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Laboratorio" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.getByLabel("Rut").fill(accounts.patient.rut);
      await page.getByLabel("Contraseña", { exact: true }).fill("Incorrecta2026");
      await expect(page.locator(".toast")).toHaveText("Su sesión expiró. Ingrese nuevamente.");
      await page.getByRole("button", { name: "Ingresar" }).click();
      await expect(page.getByRole("alert")).toHaveText(LOGIN_FAILED);
      await expect(page.locator(".toast")).toHaveCount(0);
    });

    test("a login the portal cannot answer keeps the spec's banner and says underneath that the portal is not answering", async ({
      page,
    }) => {
      await page.route("**/trpc/auth.login**", (route) => route.abort());
      await page.goto("/login");
      await page.getByLabel("Rut").fill(accounts.patient.rut);
      await page.getByLabel("Contraseña", { exact: true }).fill(accounts.patient.password);
      await page.getByRole("button", { name: "Ingresar" }).click();
      const banner = page.getByRole("alert");
      await expect(banner).toHaveCount(1);
      await expect(banner).toContainText(LOGIN_FAILED);
      await expect(banner).toContainText("El portal no está respondiendo. Vuelva a intentarlo en unos minutos.");
      await expect(page.locator(".toast")).toHaveCount(0);
    });

    test("a refused recovery link: the toast's words lead the message in the form, which stays after the toast", async ({ page }) => {
      await page.goto("/recover-password?token=enlace-inventado&rut=12.345.678-5");
      await page.getByLabel("Nueva contraseña", { exact: true }).fill("NuevaClave2026");
      await page.getByLabel("Repetir contraseña", { exact: true }).fill("NuevaClave2026");
      await page.getByRole("button", { name: "Guardar contraseña" }).click();
      await expect(page.locator(".toast")).toContainText("error de sistema vuelva a intentarlo");
      const inForm = page.locator("form").getByRole("alert");
      await expect(inForm).toContainText("Error de sistema vuelva a intentarlo");
      await expect(inForm).toContainText("no es válido o ha expirado");
      // The toast leaves after its 3 seconds (SPEC §9); the message in the form is the one that lasts.
      await expect(page.locator(".toast")).toHaveCount(0, { timeout: 6_000 });
      await expect(inForm).toBeVisible();
    });
  });
}
