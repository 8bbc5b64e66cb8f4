import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { createFreshAccount } from "./support/accounts.ts";
import { openUserByRut } from "./users-helpers.ts";
import { completeSecondFactorStep, nextTotpCode } from "./support/second-factor.ts";

// Issue 27: staff accounts behind a second factor. A new executive enrols after replacing the temporary password, then
// signs in with a code, a wrong and a replayed code are refused, a recovery code works once, and a session is ended
// from another browser.

test.describe.configure({ mode: "serial" });

const newPassword = "EjecutivaPropia2026";
let account: { rut: string; password: string };
let secret = "";
let recoveryCodes: string[] = [];
let usedCode = "";

async function passwordStep(page: Page) {
  await page.goto("/admin-login");
  await page.getByLabel("Rut").fill(account.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
}

/**
 * The second step with one of the recovery codes, for a test's other browser: the secret's codes are one per 30-s step
 * and this file's tests use five sessions, so a TOTP code for each made the file wait for the clock (≈ 45 s a run).
 */
async function recoveryCodeStep(page: Page, index: number) {
  await page.getByLabel("Código de verificación").fill(recoveryCodes[index]!);
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
}

test("a new executive sets up the second factor: QR code and the secret as text, a first code, ten recovery codes", async ({ page }) => {
  const fresh = await createFreshAccount(1);
  await logIn(page, fresh, "staff");
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await page.getByRole("dialog", { name: "¡Bienvenido!" }).getByRole("button", { name: "Entendido" }).click();
  const form = page.getByRole("form", { name: "Cambio de contraseña" });
  await form.getByLabel("Contraseña actual", { exact: true }).fill(fresh.password);
  await form.getByLabel("Nueva contraseña", { exact: true }).fill(newPassword);
  await form.getByLabel("Repetir contraseña", { exact: true }).fill(newPassword);
  await form.getByRole("button", { name: "Guardar contraseña" }).click();
  await page.getByRole("dialog", { name: "Cambios actualizados" }).getByRole("button").first().click();
  await expect(page).toHaveURL(/\/admin\/second-factor$/);
  account = { rut: fresh.rut, password: newPassword };

  await page.getByRole("button", { name: "Comenzar" }).click();
  await expect(page.getByRole("img", { name: "Código QR para la aplicación de autenticación" })).toBeVisible();
  secret = (await page.getByTestId("second-factor-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel("Código de verificación").fill("000000");
  await page.getByRole("button", { name: "Activar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "El código de verificación no es válido" })).toBeVisible();
  usedCode = await nextTotpCode(secret);
  await page.getByLabel("Código de verificación").fill(usedCode);
  await page.getByRole("button", { name: "Activar" }).click();
  const codes = page.getByRole("region", { name: "Códigos de recuperación" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
});

test("login asks for the code: a wrong one and a replayed one are refused, the right one signs in", async ({ page }) => {
  await passwordStep(page);
  await expect(page).toHaveURL(/\/admin-login$/);
  const refused = page.getByRole("alert").filter({ hasText: "El código de verificación no es válido o ya fue utilizado" });
  await page.getByLabel("Código de verificación").fill("123456");
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(refused).toBeVisible();
  // The code already used to activate the factor is refused: each code works once.
  await page.getByLabel("Código de verificación").fill(usedCode);
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(refused).toBeVisible();
  await completeSecondFactorStep(page, secret, /\/admin-login$/);
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
});

test("a recovery code is accepted in the same field, once", async ({ page }) => {
  await passwordStep(page);
  await page.getByLabel("Código de verificación").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page).toHaveURL(/\/admin\/admin-users$/);

  await page.context().clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await passwordStep(page);
  await page.getByLabel("Código de verificación").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "El código de verificación no es válido o ya fue utilizado" })).toBeVisible();
});

test("a session ended from another browser in 'Mi cuenta' is signed out at once", async ({ page, browser }) => {
  const other = await browser.newContext({
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0",
  });
  const elsewhere = await other.newPage();
  await passwordStep(page);
  await completeSecondFactorStep(page, secret, /\/admin-login$/);
  await passwordStep(elsewhere);
  await recoveryCodeStep(elsewhere, 1);

  await page.goto("/admin/account");
  const sessions = page.getByRole("region", { name: "Sesiones activas" });
  await expect(sessions.getByText("(esta sesión)")).toBeVisible();
  await sessions.getByRole("button", { name: "Cerrar sesión de Firefox en Windows" }).first().click();
  await expect(sessions.getByRole("button", { name: "Cerrar sesión de Firefox en Windows" })).toHaveCount(0);

  await elsewhere.goto("/admin/admin-users");
  await expect(elsewhere).toHaveURL(/\/(admin-)?login$/);
  // This browser goes on.
  await page.goto("/admin/admin-users");
  await expect(page.getByRole("heading", { name: "Usuarios y Pacientes" })).toBeVisible();
  await other.close();
});

test("the demo admin signs in with the code of the development secret", async ({ page }) => {
  await logIn(page, accounts.demoAdmin, "staff", "", { throughTheForm: true });
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
});

test("an admin resets the executive's second factor with a reason; their next login sets it up again", async ({ page, browser }) => {
  // The executive is signed in elsewhere: the reset ends that session.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await passwordStep(elsewhere);
  await recoveryCodeStep(elsewhere, 2);

  await logIn(page, accounts.admin, "staff");
  await openUserByRut(page, account.rut);
  const form = page.getByRole("form", { name: "Restablecer verificación en dos pasos" });
  await form.getByRole("button", { name: "Restablecer" }).click();
  await expect(form.getByRole("alert")).toContainText("Indique el motivo del restablecimiento");
  await form.getByLabel("Motivo").fill("Perdió su teléfono (ticket 4512)");
  await form.getByRole("button", { name: "Restablecer" }).click();
  await expect(form.getByText("Verificación en dos pasos restablecida")).toBeVisible();

  await elsewhere.goto("/admin/admin-users");
  await expect(elsewhere).toHaveURL(/\/(admin-)?login$/);
  await elsewhere.goto("/admin-login");
  await elsewhere.getByLabel("Rut").fill(account.rut);
  await elsewhere.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await elsewhere.getByRole("button", { name: "Ingresar" }).click();
  await expect(elsewhere).toHaveURL(/\/admin\/second-factor$/);
  await expect(elsewhere.getByRole("button", { name: "Comenzar" })).toBeVisible();
  await other.close();
});
