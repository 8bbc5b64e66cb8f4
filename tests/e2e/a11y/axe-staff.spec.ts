import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "../shell-helpers.ts";
import { executive } from "../users-helpers.ts";
import { expectAccessible } from "./axe.ts";

// axe over every staff screen of SPEC §2 (and the staff account and audit screens), for an admin and
// for an executive, with their modals open and their forms showing errors (issue 29). Nothing is saved: the
// confirmations are opened and dismissed with Escape. A modal's check covers the page behind it too. The bill form
// is the same component for both roles: checked once, as the admin.

async function usersAndCreateUser(page: Page, role: string) {
  await page.goto("/admin/admin-users");
  await expect(page.getByRole("table", { name: "Usuarios" }).locator("tbody tr").first()).toBeVisible();
  await expect(page).toHaveTitle(/^Usuarios y Pacientes · /);
  await expectAccessible(page, `${role}: Usuarios y Pacientes`);

  await page
    .getByRole("table", { name: "Usuarios" })
    .getByRole("button", { name: /Modificar/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Modificación de usuario" })).toBeVisible();
  await expect(page.getByLabel("Rut", { exact: true })).not.toHaveValue("");
  await expect(page).toHaveTitle(/^Modificación de usuario · /);
  await expectAccessible(page, `${role}: Modificación de usuario`);

  await page.goto("/admin/create-user");
  await page.getByLabel("Rut", { exact: true }).fill("12.345.678-0");
  await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await page.getByLabel("Rut", { exact: true }).focus();
  await expect(page.getByText("La dirección de correo es incorrecta")).toBeVisible();
  await expectAccessible(page, `${role}: Crear cuenta de usuario, con errores`);
}

async function bills(page: Page, role: string) {
  await page.goto("/admin/admin-bills");
  const table = page.getByRole("table", { name: "Cuentas hospitalarias" });
  await expect(table.getByRole("button", { name: /^Modificar cuenta/ }).first()).toBeVisible();
  await table
    .getByRole("button", { name: /^Adjuntos.* de la cuenta/ })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: "Documentos adjuntos" })).toBeVisible();
  await expectAccessible(page, `${role}: Cuentas hospitalarias, adjuntos sobre la lista`);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

/** The bill form, changing (with the delete confirmation open) and creating (with errors); the same for both roles. */
async function billForms(page: Page, role: string) {
  await page
    .getByRole("table", { name: "Cuentas hospitalarias" })
    .getByRole("button", { name: /^Modificar cuenta/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Modificar cuenta hospitalaria" })).toBeVisible();
  await expect(page).toHaveTitle(/^Modificar cuenta hospitalaria · /);
  await page.getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, `${role}: Modificar cuenta hospitalaria, confirmación de eliminar sobre el formulario`);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.goto("/admin/edit-bills");
  await expect(page.getByRole("heading", { name: "Cargar cuenta a Paciente" })).toBeVisible();
  await expect(page).toHaveTitle(/^Cargar cuenta a Paciente · /);
  await page.getByLabel("ID Cuenta").fill("no válido");
  await page.getByLabel("Monto").fill("cero");
  await page.getByLabel("RUT del paciente").focus();
  await expect(page.locator(".field__error").first()).toBeVisible();
  await expectAccessible(page, `${role}: Cargar cuenta a Paciente, con errores`);
}

test("every admin screen, modal and form error has no serious or critical axe violation", async ({ page }) => {
  test.setTimeout(240_000);
  await logIn(page, accounts.admin, "staff");
  await usersAndCreateUser(page, "Administrador");
  await bills(page, "Administrador");
  await billForms(page, "Administrador");
  for (const [path, heading] of [
    ["/admin/audit", "Auditoría"],
    ["/admin/account", "Mi cuenta"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expectAccessible(page, `Administrador: ${heading}`);
  }
});

test("every executive screen, modal and form error has no serious or critical axe violation", async ({ page }) => {
  test.setTimeout(240_000);
  await logIn(page, executive, "staff");
  await usersAndCreateUser(page, "Ejecutivo");
  await bills(page, "Ejecutivo");
});
