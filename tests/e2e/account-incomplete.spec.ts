import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// The seeded incomplete-profile patient (16.789.012-1, owned by this file): the portal keeps sending them to
// 'Mi cuenta' until the data is complete, and saving it leads to scheduling.

test("a patient with an incomplete profile is sent to 'Mi cuenta' and reaches scheduling once the data is complete", async ({ page }) => {
  await logIn(page, accounts.incomplete);
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  // Not a first login: no welcome modal but 'Complete sus datos' (SPEC §4), the data open and the password collapsed.
  const onArrival = page.getByRole("dialog", { name: "Complete sus datos" });
  await expect(onArrival).toContainText("Para utilizar el portal deberá completar sus datos personales");
  await expect(page.getByRole("dialog", { name: "¡Bienvenido al Portal Paciente!" })).toHaveCount(0);
  await onArrival.getByRole("button", { name: "Entendido" }).click();
  await expect(page.getByRole("button", { name: /^Datos personales/ })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: /^Cambiar contraseña/ })).toHaveAttribute("aria-expanded", "false");

  await page.goto("/dashboard/scheduling");
  const incomplete = page.getByRole("dialog", { name: "Complete sus datos" });
  await expect(incomplete).toContainText("Para utilizar el portal deberá completar sus datos personales");
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await incomplete.getByRole("button", { name: "Entendido" }).click();
  await expect(incomplete).toBeHidden();

  // What is stored is already in the form; the missing fields are empty.
  await expect(page.getByLabel("Rut", { exact: true })).toHaveValue("16.789.012-1");
  await expect(page.getByLabel("Primer nombre")).toHaveValue("Pedro");
  await expect(page.getByLabel("Apellido paterno")).toHaveValue("Soto");
  await expect(page.getByLabel("Apellido materno")).toHaveValue("");
  const saveData = page.getByRole("button", { name: "Guardar datos" });
  // Issue 33: the fields 'Complete sus datos' is about are marked on arrival and listed at the top.
  await expect(page.getByLabel("Apellido materno")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(".error-summary")).toContainText("Apellido materno");
  await expect(page.locator(".error-summary")).toContainText("Teléfono");

  // A birth date in the future is refused.
  const birthDate = page.getByLabel("Fecha de nacimiento");
  await birthDate.fill("2999-01-01");
  await birthDate.blur();
  await expect(page.getByText("La fecha es inválida", { exact: true })).toBeVisible();

  await page.getByLabel("Apellido materno").fill("Valenzuela");
  await page.getByLabel("Teléfono").fill("+56 9 8765 4321");
  await birthDate.fill("1982-11-30");
  await expect(page.getByText("La fecha es inválida", { exact: true })).toBeHidden();
  await saveData.click();

  const saved = page.getByRole("dialog", { name: "Se han guardado tus datos satisfactoriamente" });
  await expect(saved).toBeVisible();
  await saved.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/dashboard\/scheduling$/);

  // Every patient page opens now, through the menu too.
  await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Laboratorio" }).click();
  await expect(page).toHaveURL(/\/dashboard\/laboratory$/);
  await expect(page.getByRole("dialog", { name: "Complete sus datos" })).toHaveCount(0);
});
