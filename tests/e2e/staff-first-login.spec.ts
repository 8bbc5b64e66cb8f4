import { expect, test } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { createFreshAccount } from "./support/accounts.ts";

test("a new executive must replace the mailed temporary password before using the staff area", async ({ page }) => {
  const executive = await createFreshAccount(1);
  await logIn(page, executive, "staff");
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  const welcome = page.getByRole("dialog", { name: "¡Bienvenido!" });
  // SPEC §4's 'debes cambiar tu contraseña' is the patient's welcome; staff read the portal's usted (issue 33).
  await expect(welcome).toContainText("Antes de comenzar, debe cambiar su contraseña");
  await welcome.getByRole("button", { name: "Entendido" }).click();

  // Any other staff page sends them back here, welcomed again.
  await page.goto("/admin/admin-users");
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await welcome.getByRole("button", { name: "Entendido" }).click();

  const form = page.getByRole("form", { name: "Cambio de contraseña" });
  await form.getByLabel("Contraseña actual", { exact: true }).fill(executive.password);
  await form.getByLabel("Nueva contraseña", { exact: true }).fill("EjecutivaPropia2026");
  await form.getByLabel("Repetir contraseña", { exact: true }).fill("EjecutivaPropia2026");
  await form.getByRole("button", { name: "Guardar contraseña" }).click();
  await expect(page.getByRole("dialog", { name: "Cambios actualizados" })).toBeVisible();
  // Then the second factor, which staff must set up (issue 27; the enrolment itself: second-factor.spec.ts).
  await expect(page).toHaveURL(/\/admin\/second-factor$/);
  await page.getByRole("dialog", { name: "Cambios actualizados" }).getByRole("button").first().click();
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
});
