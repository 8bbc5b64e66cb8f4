import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "../shell-helpers.ts";
import { createFreshAccount } from "../support/accounts.ts";
import { e2ePorts } from "../support/ports.ts";
import { completeSecondFactorStep, staffSecretOf } from "../support/second-factor.ts";
import { emailFor, uniqueUserRut } from "../users-helpers.ts";
import { announced, forgetAnnouncements, recordAnnouncements } from "./announcements.ts";

// What Orca said in the review with a screen reader (docs/accesibilidad.md, 'Revisión con lector de pantalla (Orca)'), as tests: a
// screen that changes without a page load is told by its name; a modal that opens with nothing focused is told by its
// title and message; each error is said once, in one piece; text at rest is not in a live region (Chromium repeats
// it every time a modal closes).

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
test.use({ baseURL: southPortal });

/** Waits until the page has stopped asking the server for a moment (its sections have loaded). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
}

test("after the login, and on every move through the menu, a screen reader hears the new screen's name and nothing else", async ({
  page,
  context,
}) => {
  await recordAnnouncements(context);
  await logIn(page, accounts.patient);
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await expect(page.getByRole("heading", { name: "Sesiones activas" })).toBeVisible();
  await settled(page);
  expect(await announced(page)).toEqual(["Mi cuenta"]);

  await forgetAnnouncements(page);
  await page.getByRole("navigation").getByRole("link", { name: "Cuentas hospitalarias" }).click();
  await expect(page.getByRole("heading", { name: "Cuentas hospitalarias", level: 1 })).toBeVisible();
  await expect(page.getByText(/Total por pagar/).first()).toBeVisible();
  await settled(page);
  expect(await announced(page)).toEqual(["Cuentas hospitalarias"]);
  // Said, the name leaves the region: text at rest in a live region is said again each time a modal closes.
  await page
    .getByRole("button", { name: /^Adjuntos/ })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: "Documentos adjuntos" })).toBeVisible();
  await expect(page.locator("#announcer")).toBeEmpty();
  await page.keyboard.press("Escape");

  await forgetAnnouncements(page);
  await page.getByRole("navigation").getByRole("link", { name: "Laboratorio" }).click();
  await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
  await settled(page);
  expect(await announced(page)).toEqual(["Exámenes de laboratorio"]);
});

test("the staff login's second step, the screens after it and a save stopped by an error are each announced once, in one piece", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  await recordAnnouncements(context);
  await page.goto("/admin-login");
  await page.getByLabel("Rut").fill(accounts.admin.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(accounts.admin.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
  await expect
    .poll(() => announced(page))
    .toEqual([
      "Verificación en dos pasos. Ingrese el código de 6 dígitos que muestra su aplicación de autenticación, o uno de sus códigos de recuperación.",
    ]);

  await completeSecondFactorStep(page, staffSecretOf(accounts.admin.rut)!, /\/admin-login$/);
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
  await expect.poll(() => announced(page)).toContain("Usuarios y Pacientes");

  await forgetAnnouncements(page);
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL(/\/admin\/create-user$/);
  await expect.poll(() => announced(page)).toEqual(["Crear cuenta de usuario"]);

  const rut = uniqueUserRut();
  await page.getByLabel("Rut", { exact: true }).fill(rut);
  const email = page.getByLabel("Correo electrónico");
  await email.fill("sin-arroba");
  await email.blur();
  await expect(page.getByText("La dirección de correo es incorrecta")).toBeVisible();
  await forgetAnnouncements(page);
  // The button says why it cannot create the account yet (aria-disabled); Enter on it stops the save.
  await page.getByRole("button", { name: "Crear cuenta" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Revise los campos marcados para guardar" })).toBeVisible();
  await expect(email).toBeFocused();
  await expect
    .poll(() => announced(page))
    .toEqual(["Revise los campos marcados para guardar. Correo electrónico: La dirección de correo es incorrecta."]);

  // 'Crear cuenta' is disabled while the account is created (the focus falls to the page), but it is still there: the
  // modal that answers is read as the focus enters it, not said a second time.
  await email.fill(emailFor(rut, "lector"));
  await forgetAnnouncements(page);
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  const created = page.getByRole("dialog", { name: "Cuenta creada" });
  await expect(created.getByRole("button", { name: "Entendido" })).toBeFocused();
  expect(await announced(page)).toEqual([]);
});

test("a failed e-mail of a report is said once by the toast, the message beside the order adds only what did not happen, and the 'Email enviado' modal is not said twice", async ({
  page,
  context,
}) => {
  await logIn(page, accounts.patient);
  await recordAnnouncements(context);
  await page.goto("/dashboard/laboratory");
  await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
  await settled(page);
  await forgetAnnouncements(page);

  const toast = "Hubo un error al procesar la solicitud, por favor intente más tarde";
  await page.route("**/trpc/reports.mail**", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }), {
    times: 1,
  });
  const send = page.getByRole("button", { name: "Enviar por email el informe de la orden 1234567801" }).first();
  await send.click();
  await expect(page.locator(".action-failure")).toBeVisible();
  const said = await announced(page);
  expect(said.filter((text) => text.includes(toast))).toEqual([toast]);
  expect(said).toContain("No se pudo enviar a su correo el informe de la orden 1234567801.");

  await forgetAnnouncements(page);
  await send.click();
  await expect(page.getByRole("dialog", { name: "Email enviado" })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Email enviado" }).getByRole("button", { name: "Entendido" })).toBeFocused();
  // The button that opened it had the focus: the screen reader reads the modal as the focus enters it.
  expect(await announced(page)).toEqual([]);
});

test("a new patient who accepts the terms hears 'Mi cuenta' and the welcome modal, which opens with nothing focused", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  const account = await createFreshAccount();
  await recordAnnouncements(context);
  await page.goto("/login");
  await page.getByLabel("Rut").fill(account.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/accept-tyc$/);
  await expect.poll(() => announced(page)).toEqual(["Términos y condiciones"]);

  await forgetAnnouncements(page);
  await page.getByRole("button", { name: "Continuar" }).click();
  const welcome = page.getByRole("dialog", { name: "¡Bienvenido al Portal Paciente!" });
  await expect(welcome).toBeVisible();
  await expect
    .poll(() => announced(page))
    .toEqual(["Mi cuenta", "¡Bienvenido al Portal Paciente! Antes de comenzar, debes cambiar tu contraseña."]);
});
