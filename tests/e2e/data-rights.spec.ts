import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { rutOf } from "../helpers/fixtures.ts";
import { accounts, logIn } from "./shell-helpers.ts";
import { openUserByRut } from "./users-helpers.ts";

// The patient's rights over their data (issue 28): 'Descargar mis datos', 'Accesos a mis datos' and 'Solicitudes' in
// 'Mis datos', and the staff side ('Solicitudes de pacientes', a patient's accesses from the edit page), at 375 and
// 1280 px. Each width uses its own seeded patient (the export allows one request per hour).

/** The seed's extra complete patients (server/db/seed.ts): RUT body 17.000.000 + i × 104.729. */
const seededPatient = (index: number) => ({ rut: rutOf(17_000_000 + index * 104_729), password: "Paciente2026" });
const widths = [
  { width: 375, height: 667, patient: seededPatient(22) },
  { width: 1280, height: 800, patient: seededPatient(23) },
];

const section = (page: Page, title: string) => page.locator("section.card", { has: page.getByRole("heading", { name: title, level: 2 }) });
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const { width, height, patient } of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test("a patient downloads their data as a ZIP, and a second request within the hour is refused in Spanish", async ({ page }) => {
      // The server builds the whole ZIP (a PDF summary, the bills' PDFs, FHIR) while the test waits: the slow budget.
      test.slow();
      await logIn(page, patient);
      await page.goto("/dashboard/account-settings");
      const download = section(page, "Descargar mis datos");
      await download.getByRole("button", { name: "Preparar mis datos" }).click();
      await expect(download.getByText(/Sus datos están listos\. Puede descargarlos hasta el \d{2}-\d{2}-\d{4} \d{2}:\d{2}/)).toBeVisible();
      const [file] = await Promise.all([page.waitForEvent("download"), download.getByRole("button", { name: "Descargar ZIP" }).click()]);
      expect(file.suggestedFilename()).toMatch(/^mis-datos-\d{4}-\d{2}-\d{2}\.zip$/);
      const bytes = await readFile(await file.path());
      expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");

      await download.getByRole("button", { name: "Preparar mis datos" }).click();
      await expect(download.getByRole("alert")).toContainText(
        /Ya pidió sus datos hace menos de una hora\. Podrá pedirlos de nuevo a las \d{2}:\d{2}\./,
      );
      expect(await scrollsSideways(page)).toBe(false);
    });

    test("a patient sees who accessed their data, and a reversed range is refused", async ({ page }) => {
      await logIn(page, patient);
      await page.goto("/dashboard/account-settings");
      const accesses = section(page, "Accesos a mis datos");
      const list = accesses.getByRole("list", { name: "Accesos a los datos" });
      // The export of the test before: asked by the patient, prepared by the clinic's systems. The list opens on
      // 'Solo otras personas' (issue 45 §8), so the patient's own request shows once that is unchecked.
      await expect(list).toContainText("Sistemas de la clínica");
      await expect(list).not.toContainText("Usted");
      await accesses.getByRole("checkbox", { name: "Solo otras personas" }).click();
      await expect(list.getByText("Usted").first()).toBeVisible();
      await expect(list).toContainText("Solicitud de descarga de datos");
      await expect(list).toContainText("Sistemas de la clínica");
      await expect(list).not.toContainText("data.export");

      await accesses.getByLabel("Desde").fill("2026-03-05");
      await accesses.getByLabel("Hasta").fill("2026-03-01");
      await accesses.getByRole("button", { name: "Buscar" }).click();
      await expect(accesses.getByRole("alert")).toContainText("La fecha Desde no puede ser posterior a la fecha Hasta");
      await accesses.getByLabel("Desde").fill("2001-01-01");
      await accesses.getByLabel("Hasta").fill("2001-01-31");
      await accesses.getByRole("button", { name: "Buscar" }).click();
      await expect(page).toHaveURL(/desde=2001-01-01&hasta=2001-01-31/);
      await expect(accesses.getByText("No hay accesos entre el 01-01-2001 y el 31-01-2001.")).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
    });

    test("a patient asks for a rectification (the correct value is required) and reads what closing the account means", async ({
      page,
    }) => {
      await logIn(page, patient);
      await page.goto("/dashboard/account-settings");
      const requests = section(page, "Solicitudes");
      // Only what 'Datos personales' does not let the patient edit (issue 45 §5): the RUT or another datum.
      await expect(requests.getByLabel("Dato incorrecto").locator("option")).toHaveText(["Seleccione el dato", "RUT", "Otro dato"]);
      await requests.getByLabel("Dato incorrecto").selectOption("other");
      await requests.getByRole("button", { name: "Enviar solicitud" }).click();
      await expect(requests.getByText("Ingrese el valor correcto")).toBeVisible();
      await requests.getByLabel("Valor correcto").fill("Previsión: Fonasa");
      await requests.getByRole("button", { name: "Enviar solicitud" }).click();
      const mine = requests.getByRole("list", { name: "Sus solicitudes" });
      await expect(mine).toContainText("Rectificación de un dato");
      await expect(mine).toContainText("Otro dato: Previsión: Fonasa");
      await expect(mine).toContainText(/Recibida · Plazo: \d{2}-\d{2}-\d{4}/);

      await requests.getByLabel("¿Qué solicita?").selectOption("account_closure");
      await expect(requests.getByText(/Su ficha clínica se mantiene en la clínica, como exige la ley/)).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
    });

    test("staff move a patient's request on in 'Solicitudes de pacientes' (a rejection needs a reason) and open the patient's accesses", async ({
      page,
    }) => {
      await logIn(page, accounts.admin, "staff");
      await page.goto("/admin/rights-requests");
      await expect(page.getByRole("heading", { name: "Solicitudes de pacientes", level: 1 })).toBeVisible();
      const item = page.getByRole("listitem").filter({ hasText: patient.rut });
      await expect(item).toContainText("Recibida");
      await item.getByRole("button", { name: "Marcar en curso" }).click();
      await expect(item).toContainText("En curso");
      await item.getByRole("button", { name: "Rechazar…" }).click();
      await item.getByRole("button", { name: "Rechazar", exact: true }).click();
      await expect(item.getByText("Ingrese el motivo del rechazo")).toBeVisible();
      await expect(item).toContainText("En curso");
      expect(await scrollsSideways(page)).toBe(false);

      await openUserByRut(page, patient.rut);
      await page.getByRole("button", { name: "Ver accesos" }).click();
      await expect(page).toHaveURL(/\/admin\/patient-accesses\?userId=\d+$/);
      // The page names whose accesses these are (issue 45).
      await expect(page.getByText(`Paciente:`)).toContainText(patient.rut);
      // Others' reads first (issue 45 §8); the patient's own show once 'Solo otras personas' is off.
      await expect(page.getByRole("list", { name: "Accesos a los datos" })).toContainText("Prueba Administradora");
      // A click, then the box's state: the router applies the new address in a transition, a moment after the click.
      const onlyOthers = page.getByRole("checkbox", { name: "Solo otras personas" });
      await onlyOthers.click();
      await expect(onlyOthers).not.toBeChecked();
      await expect(page).toHaveURL(/userId=\d+/);
      await expect(page.getByRole("list", { name: "Accesos a los datos" })).toContainText("Usted");
      expect(await scrollsSideways(page)).toBe(false);
    });
  });
}
