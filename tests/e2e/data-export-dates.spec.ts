import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { unzip } from "../helpers/unzip.ts";
import { exportDatesBills, exportDatesPatients } from "./support/export-dates-fixtures.ts";
import { logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 45 §1: the data download dated every bill one day early. Each bill's day in datos.json, in resumen.pdf and in
// 'Cuentas hospitalarias' is the same, on a phone in Santiago and at 1280 px in a browser far west of Chile (the
// server's own zone is varied in tests/api/data-export-dates.test.ts).

const runs = [
  { width: 375, height: 667, timezoneId: "America/Santiago", patient: exportDatesPatients[0], suffix: "0" },
  { width: 1280, height: 800, timezoneId: "Pacific/Honolulu", patient: exportDatesPatients[1], suffix: "1" },
];

// A clinic whose portal shows 'Cuentas hospitalarias' (the test portal's own address stands for one that does not).
const sur = `http://clinicasur.localhost:${e2ePorts.portal}`;
const section = (page: Page, title: string) => page.locator("section.card", { has: page.getByRole("heading", { name: title, level: 2 }) });

for (const { width, height, timezoneId, patient, suffix } of runs) {
  test.describe(`at ${width} px in ${timezoneId}`, () => {
    test.use({ viewport: { width, height }, timezoneId });

    test("each bill's date is the same day in the ZIP's datos.json, its resumen.pdf and 'Cuentas hospitalarias'", async ({ page }) => {
      // Preparing the ZIP, reading its PDF and the bills list: more than one ordinary screen's time on a busy machine.
      test.slow();
      await logIn(page, patient, "patient", sur);
      await page.goto(`${sur}/dashboard/account-settings`);
      const download = section(page, "Descargar mis datos");
      await download.getByRole("button", { name: "Preparar mis datos" }).click();
      await expect(download.getByText(/Sus datos están listos/)).toBeVisible({ timeout: 30_000 });
      const [file] = await Promise.all([page.waitForEvent("download"), download.getByRole("button", { name: "Descargar ZIP" }).click()]);
      const files = await unzip(await readFile(await file.path()));
      const datos = JSON.parse(files.get("datos.json")!.toString("utf8")) as { bills: Array<{ accountCode: string; date: string }> };
      const { text: summary } = await extractText(await getDocumentProxy(new Uint8Array(files.get("resumen.pdf")!)), { mergePages: true });

      // Issue 45, low list: the LEEME and the PDF spoke to the patient of "Bundle FHIR R4", "JSON Schema 2020-12" and
      // "0 intento(s)". Plain words for the patient; the technical names only under the LEEME's note for a developer.
      const readme = files.get("LEEME.txt")!.toString("utf8");
      const [forThePatient, technicalNote] = readme.split("Nota técnica (para quien procese los archivos con un programa)");
      expect(technicalNote).toContain("FHIR R4");
      expect(forThePatient).toContain("resumen.pdf         un resumen de sus datos, para leer e imprimir");
      for (const text of [forThePatient!, summary]) expect(text).not.toMatch(/FHIR|JSON Schema|Bundle|2020-12|UTC|\(s\)/);
      // Each bill's payments and documents counted in words (the PDF's lines wrap where they may).
      expect(summary.replace(/\s+/g, " ")).toContain("(Pendiente); sin pagos en el portal; sin documentos.");

      // Issue 45 §6: the PDF states the terms acceptance as 'Mis datos' shows it.
      const documents = page.locator(".account-documents");
      const acceptedCell = documents.getByRole("cell").filter({ hasText: /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/ });
      expect(summary).toContain(`Fecha de aceptación: ${(await acceptedCell.textContent())!.trim()}`);

      await page.goto(`${sur}/dashboard/my-bills`);
      for (const { accountCode, day } of exportDatesBills) {
        const code = `${accountCode}${suffix}`;
        const shown = day.split("-").reverse().join("-");
        expect(datos.bills.find((bill) => bill.accountCode === code)?.date).toBe(day);
        expect(summary).toContain(`cuenta ${code}, ${shown}:`);
        await expect(page.locator(`[data-account-code="${code}"]`)).toContainText(shown);
      }
    });
  });
}
