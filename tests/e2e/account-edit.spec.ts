import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// The complete patient 12.345.678-5 is shared with other specs: this file edits only the phone and the second name
// (and puts them back), never the password, names, RUT or e-mail.

const SEEDED_PHONE = "+56912345678";

const dataToggle = (page: Page) => page.getByRole("button", { name: /^Datos personales/ });
const passwordToggle = (page: Page) => page.getByRole("button", { name: /^Cambiar contraseña/ });

async function saveData(page: Page) {
  await page.getByRole("button", { name: "Guardar datos" }).click();
  const saved = page.getByRole("dialog", { name: "Se han guardado tus datos satisfactoriamente" });
  await expect(saved).toBeVisible();
  await saved.getByRole("button", { name: "Entendido" }).click();
  await expect(saved).toBeHidden();
}

test.describe("'Mi cuenta' of a complete patient", () => {
  test("shows the data open and the password collapsed; the sections fold and unfold", async ({ page }) => {
    await logIn(page, accounts.patient);
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(dataToggle(page)).toHaveAttribute("aria-expanded", "true");
    await expect(passwordToggle(page)).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByLabel("Contraseña actual", { exact: true })).toBeHidden();

    await passwordToggle(page).click();
    await expect(passwordToggle(page)).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByLabel("Contraseña actual", { exact: true })).toBeVisible();
    await dataToggle(page).click();
    await expect(dataToggle(page)).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByLabel("Primer nombre")).toBeHidden();
  });

  test("the address with a trailing slash opens the same screen", async ({ page }) => {
    await logIn(page, accounts.patient);
    await page.goto("/dashboard/account-settings/");
    await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Primer nombre")).toHaveValue("María");
  });

  test("the RUT is read-only; a new phone and second name are saved and still there after a reload", async ({ page }) => {
    await logIn(page, accounts.patient);
    const rut = page.getByLabel("Rut", { exact: true });
    await expect(rut).toHaveValue("12.345.678-5");
    await expect(rut).not.toBeEditable();
    await expect(page.getByLabel("Primer nombre")).toHaveValue("María");
    await expect(page.getByLabel("Correo electrónico")).toHaveValue("paciente@portalpacientes.cl");

    // Invalid e-mail and phone show their messages and block saving; nothing is sent.
    const email = page.getByLabel("Correo electrónico");
    await email.fill("paciente@portal");
    await email.blur();
    await expect(page.getByText("Correo electrónico inválido", { exact: true })).toBeVisible();
    // Issue 33 (GOV.UK): 'Guardar datos' stays enabled; a save stopped by errors lists them and focuses the first field.
    await page.getByRole("button", { name: "Guardar datos" }).click();
    await expect(page.locator(".error-summary")).toContainText("Correo electrónico: Correo electrónico inválido");
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await email.fill("paciente@portalpacientes.cl");
    await expect(page.getByText("Correo electrónico inválido", { exact: true })).toBeHidden();

    const phone = page.getByLabel("Teléfono");
    await phone.fill("2345-abcd");
    await phone.blur();
    await expect(page.getByText("Solo caracteres numéricos", { exact: true })).toBeVisible();
    // Issue 33: typed the way Chileans write it, stored as E.164.
    await phone.fill("2 2345 6789");
    await expect(page.getByText("Solo caracteres numéricos", { exact: true })).toBeHidden();
    await page.getByLabel("Segundo nombre (opcional)").fill("Isabel");
    await saveData(page);
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem("user") ?? "{}") as { phoneNumber?: string; secondName?: string },
    );
    expect(stored).toMatchObject({ phoneNumber: "+56223456789", secondName: "Isabel" });

    await page.reload();
    await expect(page.getByLabel("Teléfono")).toHaveValue("+56223456789");
    await expect(page.getByLabel("Segundo nombre (opcional)")).toHaveValue("Isabel");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // Back to the seeded values for the other specs.
    await page.getByLabel("Teléfono").fill(SEEDED_PHONE);
    await page.getByLabel("Segundo nombre (opcional)").fill("");
    await saveData(page);
    await page.reload();
    await expect(page.getByLabel("Teléfono")).toHaveValue(SEEDED_PHONE);
    await expect(page.getByLabel("Segundo nombre (opcional)")).toHaveValue("");
  });

  test("a wrong current password shows the server's message and keeps the session", async ({ page }) => {
    await logIn(page, accounts.patient);
    await passwordToggle(page).click();
    await page.getByLabel("Contraseña actual", { exact: true }).fill("NoEsLaActual2026");
    await page.getByLabel("Nueva contraseña", { exact: true }).fill("OtraClave2026");
    await page.getByLabel("Repetir contraseña", { exact: true }).fill("OtraClave2026");
    await page.getByRole("button", { name: "Guardar contraseña" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "La contraseña actual es incorrecta" })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    // Still signed in with the same token: another page opens.
    await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Laboratorio" }).click();
    await expect(page).toHaveURL(/\/dashboard\/laboratory$/);
  });

  test("the documents table shows the terms PDF and the acceptance date as DD-MM-YYYY HH:mm:ss at UTC+60 min", async ({ page }) => {
    await logIn(page, accounts.patient);
    const table = page.getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveText(["Documento", "Fecha de aceptación", "Ver"]);
    const row = table.getByRole("row").filter({ hasText: "Términos y condiciones" });
    const dateTyc = await page.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { dateTyc: string }).dateTyc);
    const shifted = new Date(new Date(dateTyc).getTime() + 60 * 60_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    const expected = `${pad(shifted.getUTCDate())}-${pad(shifted.getUTCMonth() + 1)}-${shifted.getUTCFullYear()} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
    await expect(row.getByRole("cell").nth(1)).toHaveText(expected);
    await expect(row.getByRole("cell").nth(1)).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
    const link = row.getByRole("link", { name: "Ver PDF de términos y condiciones" });
    await expect(link).toHaveAttribute("href", /terminos-condiciones\.pdf$/);
    await expect(link).toHaveAttribute("target", "_blank");
  });

  for (const width of [375, 1280]) {
    test(`fits a ${width} px wide screen without horizontal scroll`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await logIn(page, accounts.patient);
      await passwordToggle(page).click();
      await expect(page.getByLabel("Contraseña actual", { exact: true })).toBeVisible();
      await expect(page.getByRole("table")).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // Two columns of fields on a wide screen, one on a phone.
      const first = await page.getByLabel("Primer nombre").boundingBox();
      const second = await page.getByLabel("Segundo nombre (opcional)").boundingBox();
      if (!first || !second) throw new Error("los campos de nombre no se ven");
      if (width >= 1280) expect(Math.abs(first.y - second.y)).toBeLessThan(2);
      else expect(second.y).toBeGreaterThan(first.y + first.height);

      // No cell of the documents table overflows (at 375 px the rows are cards with their labels).
      const overflowingCells = await page
        .getByRole("table")
        .locator("td, th")
        .evaluateAll(
          (cells) => cells.filter((cell) => cell.getBoundingClientRect().height > 0 && cell.scrollWidth > cell.clientWidth).length,
        );
      expect(overflowingCells).toBe(0);
      await expect(page.getByRole("table").getByRole("cell").nth(1)).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);

      await page.screenshot({ path: `var/test-results/account-settings-${width}.png`, fullPage: true });
    });
  }
});
