import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "../shell-helpers.ts";
import { e2ePorts } from "../support/ports.ts";
import { expectAccessible } from "./axe.ts";

// axe over every patient screen of SPEC §2 on the South clinic's portal (it has every patient menu entry; the test
// portal's default clinic, Los Maitenes, has no hospital bills). Each screen's tab title says it, '<Pantalla> · <Clínica>'., each with its
// modals open and its forms showing their errors (issue 29). A modal's check covers
// the page behind it too; every state is checked at both widths.

test.use({ baseURL: `http://clinicasur.localhost:${e2ePorts.portal}` });
const clinic = "Hospital Clínico del Sur";

async function logInOnEveryMenuEntry(page: Page) {
  await logIn(page, accounts.patient);
  const menu = page.getByRole("navigation");
  for (const entry of ["Agendamiento", "Mis citas", "Imagenología", "Laboratorio", "Cuentas hospitalarias", "Mis datos"]) {
    await expect(menu.getByRole("link", { name: entry })).toHaveCount(1);
  }
}

test("'Mi cuenta' with its form errors, scheduling and the bills with their attachments have no serious or critical axe violation", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await logInOnEveryMenuEntry(page);
  await page.goto("/dashboard/account-settings");
  await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`Mi cuenta · ${clinic}`);
  for (const toggle of [/^Cambiar contraseña/, /^Datos personales/]) {
    const button = page.getByRole("button", { name: toggle });
    if ((await button.getAttribute("aria-expanded")) === "false") await button.click();
  }
  await page.getByLabel("Nueva contraseña", { exact: true }).fill("corta");
  await page.getByLabel("Repetir contraseña", { exact: true }).fill("distinta");
  await page.getByLabel("Contraseña actual", { exact: true }).focus();
  await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await page.getByLabel("Correo electrónico").blur();
  await expect(page.locator(".field__error").first()).toBeVisible();
  await expectAccessible(page, "Mi cuenta, formularios abiertos con errores");

  await page.goto("/dashboard/scheduling");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("iframe").first()).toBeVisible();
  await expect(page).toHaveTitle(`Agendamiento · ${clinic}`);
  await expectAccessible(page, "Agendamiento");

  // The list stays in the document behind the modal, so one check covers both.
  await page.goto("/dashboard/my-bills");
  await expect(page.getByRole("heading", { name: "Cuentas hospitalarias" })).toBeVisible();
  await expect(page).toHaveTitle(`Cuentas hospitalarias · ${clinic}`);
  await page
    .getByRole("button", { name: /^Adjuntos.* de la cuenta/ })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: "Documentos adjuntos" })).toBeVisible();
  await expectAccessible(page, "Cuentas hospitalarias, adjuntos");
});

test("laboratory with an order open, a refused range and the e-mail confirmation, and the imaging viewer have no serious or critical axe violation", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await logInOnEveryMenuEntry(page);
  await page.goto("/dashboard/laboratory");
  await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
  await expect(page).toHaveTitle(`Exámenes de laboratorio · ${clinic}`);
  await page.getByRole("button", { name: /prestaciones de la orden 1234567803/ }).click();
  await expect(page.locator(".result-status--ok").first()).toBeVisible();
  await page.getByLabel("Hasta").fill("2020-01-01");
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectAccessible(page, "Laboratorio, orden abierta y fechas con error");
  await page.getByRole("button", { name: "Enviar por email el informe de la orden 1234567801" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "Laboratorio, confirmación de envío");

  await page.goto("/dashboard/imaging");
  await expect(page.getByRole("heading", { name: "Exámenes de imagenología" })).toBeVisible();
  await expect(page).toHaveTitle(`Exámenes de imagenología · ${clinic}`);
  await page.getByRole("button", { name: /Ver imágenes del examen IM1234567801/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "Imagenología, visor sobre la lista");
});
