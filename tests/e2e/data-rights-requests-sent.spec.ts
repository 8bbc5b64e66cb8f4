import { expect, test, type Page } from "@playwright/test";
import { requestsPatients } from "./support/rights-requests-fixtures.ts";
import { logIn } from "./shell-helpers.ts";

// Issue 45 §4: after 'Enviar solicitud' the patient saw a red toast and a form reset to 'Rectificación' with red errors.
// A request sent is said in green, shows in 'Sus solicitudes', and the form starts again blank with no error.

const widths = [
  { width: 375, height: 667, patient: requestsPatients.phone },
  { width: 1280, height: 800, patient: requestsPatients.desktop },
];

const section = (page: Page, title: string) => page.locator("section.card", { has: page.getByRole("heading", { name: title, level: 2 }) });

for (const { width, height, patient } of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test("a request sent is confirmed in green, listed, and leaves a blank form with no error", async ({ page }) => {
      test.slow();
      await logIn(page, patient);
      await page.goto("/dashboard/account-settings");
      const requests = section(page, "Solicitudes");
      const form = requests.getByRole("form", { name: "Nueva solicitud" });

      await form.getByLabel("¿Qué solicita?").selectOption("email_opposition");
      await form.getByRole("button", { name: "Enviar solicitud" }).click();

      const sent = requests
        .getByRole("status")
        .filter({ hasText: /Solicitud N° \d+ enviada\. La clínica le responderá por correo electrónico\./ });
      await expect(sent).toBeVisible();
      const background = await sent.evaluate((element) => getComputedStyle(element).backgroundColor);
      const [red, green] = background.match(/\d+/g)!.map(Number) as [number, number];
      expect(green, `success background ${background}`).toBeGreaterThan(red);
      await expect(page.locator(".toast")).toHaveCount(0);
      await expect(requests.getByRole("list", { name: "Sus solicitudes" })).toContainText("Oposición a avisos por correo electrónico");

      await expect(form.getByLabel("¿Qué solicita?")).toHaveValue("rectification");
      await expect(form.getByLabel("Dato incorrecto")).toHaveValue("");
      await expect(form.getByRole("alert")).toHaveCount(0);
      await expect(form.getByText("Seleccione el dato que está incorrecto")).toHaveCount(0);
      await expect(form.getByText("Ingrese el valor correcto")).toHaveCount(0);

      // A second request of another kind goes through the same way; the green line names the new one.
      await form.getByLabel("Dato incorrecto").selectOption("other");
      await form.getByLabel("Valor correcto").fill("Previsión: Fonasa");
      await form.getByRole("button", { name: "Enviar solicitud" }).click();
      await expect(requests.getByRole("list", { name: "Sus solicitudes" }).getByRole("listitem")).toHaveCount(2);
      await expect(requests.getByRole("status").filter({ hasText: /Solicitud N° \d+ enviada/ })).toHaveCount(1);
      await expect(form.getByLabel("Valor correcto")).toHaveValue("");
      await expect(form.getByRole("alert")).toHaveCount(0);
    });
  });
}
