import { expect, test } from "@playwright/test";
import { firstLink, latestMailTo } from "./support/mail.ts";
import { logIn } from "./shell-helpers.ts";

// One of the seed's extra patients (i = 22), so the password change does not disturb the demo accounts.
const patient = { rut: "19.304.038-1", email: "paciente23@correo.cl", password: "Paciente2026" };
const newPassword = "NuevaClave2026";

test.describe("password recovery", () => {
  test("a patient requests a link by mail, sets a new password and logs in with it", async ({ page, baseURL }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Olvidé mi contraseña" }).click();
    await expect(page).toHaveURL(/\/recover-password$/);
    const send = page.getByRole("button", { name: "Enviar" });
    await expect(send).toBeDisabled();
    await page.getByLabel("Rut").fill("19.304.038-2");
    await expect(send).toBeDisabled();
    const since = new Date();
    await page.getByLabel("Rut").fill(patient.rut);
    await send.click();
    await expect(page.getByRole("heading", { name: "Revise su correo" })).toBeVisible();

    const mailed = new URL(firstLink(await latestMailTo(patient.email, since)));
    await page.goto(new URL(mailed.pathname + mailed.search, baseURL).toString());
    await expect(page.getByRole("heading", { name: "Nueva contraseña" })).toBeVisible();

    const save = page.getByRole("button", { name: "Guardar contraseña" });
    await page.getByLabel("Nueva contraseña", { exact: true }).fill(newPassword);
    await page.getByLabel("Repetir contraseña", { exact: true }).fill("OtraClave2026");
    await page.getByLabel("Repetir contraseña", { exact: true }).blur();
    await expect(page.getByText("Las contraseñas no coinciden")).toBeVisible();
    await expect(save).toBeDisabled();
    await page.getByRole("button", { name: "Mostrar repetir contraseña" }).click();
    await expect(page.getByLabel("Repetir contraseña", { exact: true })).toHaveAttribute("type", "text");
    await page.getByLabel("Repetir contraseña", { exact: true }).fill(newPassword);
    await save.click();

    await expect(page.getByRole("heading", { name: "Contraseña actualizada" })).toBeVisible();
    await page.getByRole("button", { name: "Ir al portal" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, { rut: patient.rut, password: newPassword });
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  });

  test("an unknown Rut gets the same confirmation step", async ({ page }) => {
    await page.goto("/recover-password");
    await page.getByLabel("Rut").fill("9.999.999-3");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByRole("heading", { name: "Revise su correo" })).toBeVisible();
    await page.getByRole("button", { name: "Volver al portal" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a link that is not valid shows the server's message in the toast", async ({ page }) => {
    await page.goto("/recover-password?token=enlace-inventado&rut=12.345.678-5");
    await page.getByLabel("Nueva contraseña", { exact: true }).fill(newPassword);
    await page.getByLabel("Repetir contraseña", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Guardar contraseña" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "no es válido o ha expirado" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Nueva contraseña" })).toBeVisible();
  });
});
