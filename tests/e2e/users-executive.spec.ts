import { expect, test } from "@playwright/test";
import { latestMailTo } from "./support/mail.ts";
import { accounts, logIn } from "./shell-helpers.ts";
import { createAccountOnScreen, emailFor, executive, openUserByRut, saveChanges, uniqueUserRut } from "./users-helpers.ts";

// An executive's view of the staff user screens, and the first login of an account created on them.
// Every account changed here is created here.

test.describe("staff user screens as an executive", () => {
  test("creates patients without a user-type choice and edits them without role or clinics", async ({ page }) => {
    test.setTimeout(60_000);
    const rut = uniqueUserRut();
    const email = emailFor(rut, "ejecutivo.crea");

    await logIn(page, executive, "staff");
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(page.getByRole("heading", { name: "Crear cuenta de usuario", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Correo electrónico")).toBeVisible();
    await expect(page.getByLabel("Tipo de usuario")).toHaveCount(0);

    // This site is maitenes, one of the executive's clinics: the patient is created there.
    await createAccountOnScreen(page, { rut, email });
    await openUserByRut(page, rut);
    await expect(page.getByRole("heading", { name: "Modificación de usuario", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Tipo de usuario")).toHaveCount(0);
    await expect(page.getByLabel("Clínicas")).toHaveCount(0);
    await page.getByLabel("Primer nombre").fill("Tomás");
    await page.getByLabel("Apellido paterno").fill("Ejecutado");
    await saveChanges(page);
    await page.reload();
    await expect(page.getByLabel("Primer nombre")).toHaveValue("Tomás");
  });

  test("a user outside the executive's clinics cannot be opened", async ({ page }) => {
    await logIn(page, executive, "staff");
    // Id 1 is the demo admin (the first account of the seed), never visible to an executive.
    await page.goto("/admin/edit-user?userId=1");
    await expect(
      page.getByRole("alert").filter({ hasText: "Hubo un error al procesar la solicitud, por favor intente más tarde" }),
    ).toBeVisible();
    await expect(page.getByLabel("Primer nombre")).toHaveCount(0);
  });
});

test("an account created by an admin logs in with the mailed temporary password and is asked to accept the terms", async ({ page }) => {
  test.setTimeout(60_000);
  const rut = uniqueUserRut();
  const email = emailFor(rut, "primer.ingreso");

  await logIn(page, accounts.admin, "staff");
  const since = await createAccountOnScreen(page, { rut, email, role: "2" });
  const mail = await latestMailTo(email, since);
  const password = /Contraseña temporal: (\S+)/.exec(mail.text)?.[1];
  expect(password).toBeTruthy();

  await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
  await expect(page).toHaveURL(/\/admin-login$/);
  await logIn(page, { rut, password: password! });
  await expect(page).toHaveURL(/\/accept-tyc$/);
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
});
