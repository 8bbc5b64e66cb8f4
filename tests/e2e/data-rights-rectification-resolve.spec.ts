import { expect, test, type Page } from "@playwright/test";
import { rutOf } from "../helpers/fixtures.ts";
import { rectificationPatients } from "./support/rights-requests-fixtures.ts";
import { latestMailTo } from "./support/mail.ts";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 45 §5, staff side: 'Resolver' closed a rectification at once, with no confirmation, no link to the patient's
// record and no change made, and the patient was mailed "Resuelta". Now the dialog shows the datum and the value asked
// for, links the record, and 'Sí, aplicar el cambio' changes the RUT; the list and the patient's mail say what was done.

const widths = [
  { width: 375, height: 667, patient: rectificationPatients.phone, email: "solicitudes.3.e2e@correo.cl", newRut: rutOf("23452013") },
  { width: 1280, height: 800, patient: rectificationPatients.desktop, email: "solicitudes.4.e2e@correo.cl", newRut: rutOf("23452014") },
];

const section = (page: Page, title: string) => page.locator("section.card", { has: page.getByRole("heading", { name: title, level: 2 }) });
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const { width, height, patient, email, newRut } of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test("staff resolve a RUT rectification after confirming the value asked for; the RUT changes and the patient is told", async ({
      page,
      browser,
    }) => {
      test.slow();
      await logIn(page, patient);
      await page.goto("/dashboard/account-settings");
      const requests = section(page, "Solicitudes");
      await requests.getByLabel("Dato incorrecto").selectOption("rut");
      await requests.getByLabel("Valor correcto").fill(newRut);
      await requests.getByRole("button", { name: "Enviar solicitud" }).click();
      await expect(requests.getByRole("list", { name: "Sus solicitudes" })).toContainText(`RUT: ${newRut}`);

      const staffContext = await browser.newContext({ viewport: { width, height }, locale: "es-CL", timezoneId: "America/Santiago" });
      const staff = await staffContext.newPage();
      await logIn(staff, accounts.admin, "staff");
      await staff.goto("/admin/rights-requests");
      const item = staff.getByRole("listitem").filter({ hasText: patient.rut });
      await item.getByRole("button", { name: "Resolver" }).click();

      const dialog = staff.getByRole("dialog", { name: /¿Resolver la solicitud N° \d+\?/ });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText("RUT");
      await expect(dialog).toContainText(`Valor pedido${newRut}`);
      await expect(dialog.getByRole("link", { name: "Ver ficha del paciente" })).toHaveAttribute("href", /\/admin\/edit-user\?userId=\d+$/);
      const box = (await dialog.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // 'Volver' changes nothing.
      await dialog.getByRole("button", { name: "Volver" }).click();
      await expect(dialog).toBeHidden();
      await expect(item).toContainText("Recibida");

      // 'Rechazar…' can be called off: 'Cancelar' puts the button back and changes nothing.
      await item.getByRole("button", { name: "Rechazar…" }).click();
      await item.getByRole("button", { name: "Cancelar" }).click();
      await expect(item.getByLabel("Motivo del rechazo")).toHaveCount(0);
      await expect(item.getByRole("button", { name: "Rechazar…" })).toBeVisible();

      const since = new Date();
      await item.getByRole("button", { name: "Resolver" }).click();
      await dialog.getByRole("button", { name: "Sí, aplicar el cambio" }).click();
      await expect(dialog).toBeHidden();
      const resolved = staff.getByRole("listitem").filter({ hasText: `Se corrigió su RUT: ahora es ${newRut}.` });
      await expect(resolved).toContainText(/Resuelta el \d{2}-\d{2}-\d{4}/);
      await expect(resolved).not.toContainText("Plazo");
      expect(await scrollsSideways(staff)).toBe(false);

      const mail = await latestMailTo(email, since, /Resuelta|Se corrigió/);
      expect(mail.text).toContain(`Se corrigió su RUT: ahora es ${newRut}.`);
      await staffContext.close();

      // The patient signs in with the corrected RUT and reads what was done, and when.
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await logIn(page, { rut: newRut, password: patient.password });
      await page.goto("/dashboard/account-settings");
      const mine = section(page, "Solicitudes").getByRole("list", { name: "Sus solicitudes" });
      await expect(mine).toContainText(`Se corrigió su RUT: ahora es ${newRut}.`);
      await expect(mine).toContainText(/Resuelta el \d{2}-\d{2}-\d{4}/);
    });
  });
}
