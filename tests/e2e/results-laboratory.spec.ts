import { expect, test, type Page } from "@playwright/test";
import { wordsBrokenAcrossLines } from "./support/broken-words.ts";
import { latestMailTo } from "./support/mail.ts";
import { reportTab } from "./support/report-popup.ts";
import { accounts, logIn } from "./shell-helpers.ts";

/** A day back from today in the browser's time zone (Chile), YYYY-MM-DD. */
const browserDay = (page: Page, back: { days?: number; years?: number }) =>
  page.evaluate(
    ({ days, years }) => {
      const date = new Date();
      date.setFullYear(date.getFullYear() - years, date.getMonth(), date.getDate() - days);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
    },
    { days: back.days ?? 0, years: back.years ?? 0 },
  );

async function openLaboratory(page: Page) {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/laboratory");
  await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
}

test("the laboratory list starts at 12 months back, filters by date and refuses Desde after Hasta", async ({ page }) => {
  await openLaboratory(page);
  const table = page.getByRole("table", { name: "Órdenes de laboratorio" });
  for (const column of ["Fecha", "Prestación", "Estado", "Informe", "Enviar por email"]) {
    await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  }
  await expect(page.getByLabel("Desde")).toHaveValue(await browserDay(page, { years: 1 }));
  await expect(page.getByLabel("Hasta")).toHaveValue(await browserDay(page, {}));
  await expect(table.getByText(/Orden N° \d+/)).toHaveCount(6);
  await expect(page.getByText("Validado", { exact: true })).toBeVisible();
  await expect(page.getByText("Pendiente", { exact: true })).toBeVisible();
  await expect(page.getByText(/48 horas hábiles/).first()).toBeVisible();
  // Issue 33: days as dd-mm-aaaa, and the legend explains 'Sin informe'.
  await expect(table.getByRole("button", { name: /Ver prestaciones/ }).first()).toHaveText(/\d\d-\d\d-\d{4}/);
  await expect(page.getByLabel("Leyenda")).toContainText("Sin informe: el informe aún no está disponible");

  await page.getByLabel("Desde").fill(await browserDay(page, { days: 29 }));
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(table.getByText(/Orden N° \d+/)).toHaveCount(2);

  await page.getByLabel("Desde").fill(await browserDay(page, {}));
  await page.getByLabel("Hasta").fill(await browserDay(page, { days: 1 }));
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page.getByRole("alert")).toHaveText("La fecha Desde no puede ser posterior a la fecha Hasta");
  await expect(table.getByText(/Orden N° \d+/)).toHaveCount(2);
});

test("an order opens to its procedures with green and red dots, loaded once", async ({ page }) => {
  await openLaboratory(page);
  let detailCalls = 0;
  page.on("request", (request) => {
    if (request.url().includes("/trpc/laboratory.order?")) detailCalls++;
  });
  const toggle = page.getByRole("button", { name: "Ver prestaciones de la orden 1234567803" });
  await toggle.click();
  const procedures = page.getByLabel("Prestaciones de la orden 1234567803", { exact: true });
  await expect(procedures.locator(".result-status--ok")).toHaveCount(2);
  await expect(procedures.locator(".result-status--pending")).toHaveText(["Pendiente Validación"]);
  await expect(procedures.getByText(/número de\s+orden 1234567803/)).toBeVisible();

  await page.getByRole("button", { name: "Ocultar prestaciones de la orden 1234567803" }).click();
  await expect(procedures).toHaveCount(0);
  await toggle.click();
  await expect(procedures.locator(".result-status--ok")).toHaveCount(2);
  expect(detailCalls).toBe(1);

  await page.getByRole("button", { name: "Ver prestaciones de la orden 1234567804" }).click();
  await expect(page.getByText("La orden aún no tiene prestaciones registradas.")).toBeVisible();
});

test("the report opens as a PDF and is e-mailed to the patient's own address", async ({ page }) => {
  await openLaboratory(page);
  const report = reportTab(page);
  await page.getByRole("button", { name: "Ver informe de la orden 1234567801" }).click();
  const { tab, address } = await report;
  expect(address).toContain("/api/rcr/v1/results/report?token=");
  const pdf = await page.request.get(address);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await tab.close();

  const since = new Date();
  await page.getByRole("button", { name: "Enviar por email el informe de la orden 1234567801" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Email enviado" })).toBeVisible();
  await expect(dialog).toContainText("Hemos enviado el informe a tu dirección de correo electrónico.");
  await dialog.getByRole("button", { name: "Entendido" }).click();
  const mail = await latestMailTo("paciente@portalpacientes.cl", since);
  expect(mail.text).toContain("orden 1234567801");

  // A pending order has no report yet: nothing to open or send.
  await expect(page.getByRole("button", { name: "Sin informe de la orden 1234567802" })).toBeDisabled();
});

test("a laboratory that cannot answer shows the Spanish toast and the page stays usable", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.route("**/trpc/laboratory.orders**", (route) => route.abort());
  await page.goto("/dashboard/laboratory");
  // The toast, and the message in the page in its same words (issue 33).
  await expect(page.locator(".toast")).toHaveText("Hubo un error al procesar la solicitud, por favor intente más tarde");
  await expect(page.locator(".load-failure")).toContainText("Hubo un error al procesar la solicitud, por favor intente más tarde.");
  await expect(page.getByRole("button", { name: "Buscar" })).toBeEnabled();
});

test("under 1024 px the orders are cards", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openLaboratory(page);
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.locator("article.result-card")).toHaveCount(6);
  // A date beside a long status ('Pendiente Validación') stays whole: the status wraps instead.
  expect(await wordsBrokenAcrossLines(page.locator("article.result-card"))).toEqual([]);
  await page.getByRole("button", { name: "Ver prestaciones de la orden 1234567801" }).click();
  await expect(page.getByLabel("Prestaciones de la orden 1234567801", { exact: true }).locator(".result-status--ok")).toHaveCount(5);
});
