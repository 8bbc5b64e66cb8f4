import { expect, test, type Page } from "@playwright/test";
import { latestMailTo } from "./support/mail.ts";
import { reportTab } from "./support/report-popup.ts";
import { accounts, logIn } from "./shell-helpers.ts";

async function openImaging(page: Page) {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/imaging");
  await expect(page.getByRole("heading", { name: "Exámenes de imagenología" })).toBeVisible();
}

test("the imaging list shows each study and opens the viewer in a modal frame that 'Volver' closes", async ({ page }) => {
  await openImaging(page);
  const table = page.getByRole("table", { name: "Exámenes de imagenología" });
  for (const column of ["Fecha", "Estudio", "Visor", "Informe", "Enviar al correo"]) {
    await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  }
  await expect(table.getByRole("row")).toHaveCount(6);
  await expect(table).not.toContainText("DOC");
  await expect(table).not.toContainText("SR ·");

  await page.getByRole("button", { name: "Ver imágenes del examen IM1234567801" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.locator("iframe")).toHaveAttribute("src", /StudyInstanceUIDs=1\.2\.826\.0\.1\.3680043\.8\.498\.12345678\.1$/);
  // The frame loads: the portal's CSP frame-src allows the configured viewer origin.
  await expect(page.frameLocator('iframe[title="Visor de imágenes"]').getByRole("heading", { name: "Visor de imágenes" })).toBeVisible();
  await dialog.getByRole("button", { name: "Volver" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("an imaging report opens as a PDF, can be e-mailed, and a study without report offers neither", async ({ page }) => {
  await openImaging(page);
  const report = reportTab(page);
  await page.getByRole("button", { name: "Ver informe del examen IM1234567801" }).click();
  const { tab, address } = await report;
  expect(address).toContain("/api/rcr/v1/results/report?token=");
  const pdf = await page.request.get(address);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  await tab.close();

  const since = new Date();
  await page.getByRole("button", { name: "Enviar al correo el informe del examen IM1234567802" }).click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Email enviado" })).toBeVisible();
  const mail = await latestMailTo("paciente@portalpacientes.cl", since);
  expect(mail.text).toContain("IM1234567802");
  await page.getByRole("dialog").getByRole("button", { name: "Entendido" }).click();

  await expect(page.getByRole("button", { name: "Sin informe del examen IM1234567803" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Enviar al correo el informe del examen IM1234567803" })).toBeDisabled();
});

test("at 375 px the studies are cards and the viewer first recommends a PC or laptop, then continues", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openImaging(page);
  await expect(page.locator("article.result-card")).toHaveCount(5);
  await page.getByRole("button", { name: "Ver imágenes del examen IM1234567801" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Atención: Se recomienda acceder al visor de imágenes desde un PC o laptop")).toBeVisible();
  await expect(dialog.locator("iframe")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Continuar" }).click();
  await expect(page.frameLocator('iframe[title="Visor de imágenes"]').getByRole("heading", { name: "Visor de imágenes" })).toBeVisible();
});

test("an imaging provider failure shows the Spanish toast", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.route("**/trpc/imaging.studies**", (route) => route.abort());
  await page.goto("/dashboard/imaging");
  // The toast, and the message in the page in its same words (issue 33).
  await expect(page.locator(".toast")).toHaveText("Hubo un error al procesar la solicitud, por favor intente más tarde");
  await expect(page.locator(".load-failure")).toContainText("Hubo un error al procesar la solicitud, por favor intente más tarde.");
});
