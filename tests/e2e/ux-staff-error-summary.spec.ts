import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";
import { emailFor, openUserByRut, uniqueUserRut } from "./users-helpers.ts";

// Issue 33, GOV.UK's error summary on the staff forms: a save stopped by errors lists them at the top as links, the
// first wrong field takes the focus, and every wrong field is marked and described by its message. Nothing here is
// saved: each save is stopped before it reaches the server, or refused by it.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
const SUMMARY_TITLE = "Revise los campos marcados para guardar";

// A region named by its title; a screen reader hears it once through the page's announcer (a11y/screen-reader.spec.ts).
function errorSummary(page: Page) {
  return page.getByRole("region", { name: SUMMARY_TITLE });
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("'Crear cuenta' pressed before the Rut and e-mail are valid lists both, focuses the Rut and creates nothing", async ({ page }) => {
      await logIn(page, accounts.admin, "staff");
      await page.goto("/admin/create-user");
      const create = page.getByRole("button", { name: "Crear cuenta" });
      // SPEC §2: disabled and greyed until both are valid, with the reason beside it.
      await expect(create).toHaveAttribute("aria-disabled", "true");
      await expect(create).toHaveAccessibleDescription("Para crear la cuenta, ingrese un Rut y un correo electrónico válidos.");
      const email = page.getByLabel("Correo electrónico");
      await email.fill("sin-arroba");
      await email.press("Enter");
      const summary = errorSummary(page);
      await expect(summary.getByRole("link")).toHaveText(["Rut: Rut inválido", "Correo electrónico: La dirección de correo es incorrecta"]);
      const rut = page.getByLabel("Rut", { exact: true });
      await expect(rut).toBeFocused();
      await expect(rut).toHaveAttribute("aria-invalid", "true");
      await expect(rut).toHaveAccessibleDescription("Rut inválido");
      await summary.getByRole("link", { name: /^Correo electrónico/ }).click();
      await expect(email).toBeFocused();
      await expect(email).toHaveAccessibleDescription("La dirección de correo es incorrecta");
      await expect(page).toHaveURL(/\/admin\/create-user$/);
    });

    test("a RUT that already has an account is listed in the error summary and marked on the Rut field", async ({ page }) => {
      await logIn(page, accounts.admin, "staff");
      await page.goto("/admin/create-user");
      const rut = page.getByLabel("Rut", { exact: true });
      await rut.fill(accounts.patient.rut);
      await page.getByLabel("Correo electrónico").fill(emailFor(uniqueUserRut(), "duplicado"));
      await page.getByRole("button", { name: "Crear cuenta" }).click();
      const refusal = `Ya existe una cuenta con el Rut ${accounts.patient.rut}`;
      await expect(errorSummary(page).getByRole("link")).toHaveText([`Rut: ${refusal}`]);
      await expect(rut).toBeFocused();
      await expect(rut).toHaveAccessibleDescription(refusal);
    });

    test("'Modificación de usuario' keeps 'Guardar cambios' enabled and lists the wrong fields when pressed", async ({ page }) => {
      await logIn(page, accounts.admin, "staff");
      await openUserByRut(page, accounts.patient.rut);
      await page.getByLabel("Correo electrónico").fill("no-es-correo");
      await page.getByLabel("Teléfono").fill("98x");
      // Leaving the field shows its message under it, which moves the button down: left first, as a person would see.
      await page.getByLabel("Teléfono").blur();
      const save = page.getByRole("button", { name: "Guardar cambios" });
      await expect(save).toBeEnabled();
      await save.click();
      await expect(errorSummary(page).getByRole("link")).toHaveText([
        "Correo electrónico: Email inválido",
        "Teléfono: Solo caracteres numéricos",
      ]);
      const email = page.getByLabel("Correo electrónico");
      await expect(email).toBeFocused();
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Teléfono")).toHaveAccessibleDescription("Solo caracteres numéricos");
      await expect(page.getByRole("dialog", { name: "Cambios actualizados" })).toHaveCount(0);
    });

    test("the bill form pressed while incomplete lists every missing field, then the unknown patient, and focuses the first", async ({
      page,
    }) => {
      await logIn(page, accounts.admin, "staff", southPortal);
      await page.goto(`${southPortal}/admin/edit-bills`);
      const save = page.getByRole("button", { name: "Guardar cambios" });
      await expect(save).toHaveAttribute("aria-disabled", "true");
      await page.getByLabel("Monto").press("Enter");
      const summary = errorSummary(page);
      await expect(summary.getByRole("link")).toHaveText([
        "RUT del paciente: Rut inválido",
        "ID Cuenta: Campo Obligatorio",
        "Fecha: La fecha es inválida",
        "Monto: Campo Obligatorio",
      ]);
      const rut = page.getByLabel("RUT del paciente");
      await expect(rut).toBeFocused();
      await expect(rut).toHaveAttribute("aria-invalid", "true");

      await rut.fill("30.000.001-0");
      await expect(rut).toHaveAccessibleDescription("No existe un paciente con ese RUT");
      await page.getByLabel("ID Cuenta").fill("99123");
      await page.getByLabel("Fecha").fill("2026-11-20");
      await page.getByLabel("Monto").fill("21.839");
      await save.click({ force: true });
      await expect(summary.getByRole("link")).toHaveText(["RUT del paciente: No existe un paciente con ese RUT"]);
      await expect(rut).toBeFocused();
      await expect(page).toHaveURL(/\/admin\/edit-bills$/);
    });
  });
}
