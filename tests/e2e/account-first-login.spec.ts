import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// The whole first login of the seeded first-login patient (15.555.555-6, owned by this file): terms, forced password
// change, personal data, scheduling; then a second login with the new password. One test, because every step
// changes the account for the next.

const NEW_PASSWORD = "PrimerIngreso2026";

const passwordToggle = (page: Page) => page.getByRole("button", { name: /^Cambiar contraseña/ });
const dataToggle = (page: Page) => page.getByRole("button", { name: /^Datos personales/ });

test("a first-login patient accepts the terms, must change the password, completes the data and reaches scheduling", async ({ page }) => {
  await logIn(page, accounts.firstLogin);
  await expect(page).toHaveURL(/\/accept-tyc$/);
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);

  // Welcome modal over the password form alone.
  const welcome = page.getByRole("dialog", { name: "¡Bienvenido al Portal Paciente!" });
  await expect(welcome).toContainText("Antes de comenzar, debes cambiar tu contraseña");
  await page.screenshot({ path: "var/test-results/account-first-login-welcome.png" });
  await welcome.getByRole("button", { name: "Entendido" }).click();
  await expect(welcome).toBeHidden();
  await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
  await expect(passwordToggle(page)).toHaveAttribute("aria-expanded", "true");
  await expect(dataToggle(page)).toHaveCount(0);
  await expect(page.getByRole("table")).toHaveCount(0);

  // The new-password rule, then the mismatch; save stays disabled meanwhile.
  const save = page.getByRole("button", { name: "Guardar contraseña" });
  await page.getByLabel("Contraseña actual", { exact: true }).fill(accounts.firstLogin.password);
  const newPassword = page.getByLabel("Nueva contraseña", { exact: true });
  await newPassword.fill("debil123");
  await newPassword.blur();
  await expect(
    page.getByText("El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número"),
  ).toBeVisible();
  await expect(save).toBeDisabled();
  await newPassword.fill(NEW_PASSWORD);
  await expect(
    page.getByText("El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número"),
  ).toBeHidden();
  const repeat = page.getByLabel("Repetir contraseña", { exact: true });
  await repeat.fill(`${NEW_PASSWORD}x`);
  await repeat.blur();
  await expect(page.getByText("Las contraseñas no coinciden")).toBeVisible();
  await expect(save).toBeDisabled();

  // The show/hide toggle reveals what was typed.
  await expect(repeat).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Mostrar repetir contraseña" }).click();
  await expect(repeat).toHaveAttribute("type", "text");

  await repeat.fill(NEW_PASSWORD);
  await expect(page.getByText("Las contraseñas no coinciden")).toBeHidden();
  const tokenBefore = await page.evaluate(() => localStorage.getItem("token"));
  await save.click();
  const changed = page.getByRole("dialog", { name: "Cambios actualizados" });
  await expect(changed).toContainText("¡Los cambios fueron guardados exitosamente!");
  await changed.getByRole("button", { name: "Entendido" }).click();

  // The stored user is marked, the new token stored, and the data form opens.
  const stored = await page.evaluate(() => ({
    user: JSON.parse(localStorage.getItem("user") ?? "{}") as { hasChangedPassword?: boolean },
    token: localStorage.getItem("token"),
  }));
  expect(stored.user.hasChangedPassword).toBe(true);
  expect(stored.token).toBeTruthy();
  expect(stored.token).not.toBe(tokenBefore);
  await expect(dataToggle(page)).toHaveAttribute("aria-expanded", "true");
  await expect(passwordToggle(page)).toHaveAttribute("aria-expanded", "false");
  const rut = page.getByLabel("Rut", { exact: true });
  await expect(rut).toHaveValue("15.555.555-6");
  await expect(rut).not.toBeEditable();

  // Data: an invalid name, then everything valid.
  const saveData = page.getByRole("button", { name: "Guardar datos" });
  // Issue 33: enabled; pressed too early it lists what is missing and focuses the first field.
  await saveData.click();
  await expect(page.locator(".error-summary")).toContainText("Primer nombre:");
  await expect(page.getByLabel("Primer nombre")).toBeFocused();
  const firstName = page.getByLabel("Primer nombre");
  await firstName.fill("Juan3");
  await firstName.blur();
  await expect(page.getByText("Solo letras", { exact: true })).toBeVisible();
  await firstName.fill("Juan");
  await expect(page.getByText("Solo letras", { exact: true })).toBeHidden();
  await page.getByLabel("Segundo nombre (opcional)").fill("Andrés");
  await page.getByLabel("Apellido paterno").fill("O'Higgins");
  await page.getByLabel("Apellido materno").fill("Núñez");
  await page.getByLabel("Correo electrónico").fill("primer.ingreso@portalpacientes.cl");
  const phone = page.getByLabel("Teléfono");
  await phone.fill("12ab");
  await phone.blur();
  await expect(page.getByText("Solo caracteres numéricos", { exact: true })).toBeVisible();
  await phone.fill("9 8765 4321");
  await page.getByLabel("Fecha de nacimiento").fill("1990-07-15");
  await expect(saveData).toBeEnabled();
  await saveData.click();

  const saved = page.getByRole("dialog", { name: "Se han guardado tus datos satisfactoriamente" });
  await expect(saved).toBeVisible();
  await page.screenshot({ path: "var/test-results/account-first-login-saved.png" });
  await saved.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
  await expect(page.getByRole("dialog", { name: "Complete sus datos" })).toHaveCount(0);
  await expect(page.locator(".app-header__name")).toHaveText("Juan O'Higgins Núñez");

  // Logged out and in again with the new password: straight to 'Mi cuenta', no welcome modal, data kept.
  await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, { rut: accounts.firstLogin.rut, password: NEW_PASSWORD });
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await expect(dataToggle(page)).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Primer nombre")).toHaveValue("Juan");
  await expect(page.getByLabel("Fecha de nacimiento")).toHaveValue("1990-07-15");
  await expect(passwordToggle(page)).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
