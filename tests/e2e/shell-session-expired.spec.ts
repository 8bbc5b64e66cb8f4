import { expect, test } from "@playwright/test";
import { logIn, storedKeys } from "./shell-helpers.ts";
import { changePasswordElsewhere, createPatientWithIncompleteProfile } from "./support/accounts.ts";

test("a call answered 401 mid-session (password changed elsewhere) clears the storage and returns to the login", async ({ page }) => {
  const patient = await createPatientWithIncompleteProfile();
  await logIn(page, patient);
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await page.getByRole("dialog", { name: "Complete sus datos" }).getByRole("button", { name: "Entendido" }).click();

  await changePasswordElsewhere(patient, "OtraSesion2026");

  const form = page.getByRole("form", { name: "Datos personales" });
  await form.getByLabel("Primer nombre").fill("Rosa");
  await form.getByLabel("Apellido paterno").fill("Vera");
  await form.getByLabel("Apellido materno").fill("Lagos");
  await form.getByLabel("Teléfono").fill("+56933334444");
  await form.getByLabel("Fecha de nacimiento").fill("1980-04-05");
  await form.getByRole("button", { name: "Guardar datos" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Su sesión expiró. Ingrese nuevamente.")).toBeVisible();
  await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });
});
