import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// 'Ver evolución' (issue 31): an analyte's values across the patient's orders, as a chart and as a table.

async function openFirstOrder(page: Page) {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/laboratory");
  await page.getByRole("button", { name: "Ver prestaciones de la orden 1234567801" }).click();
  return page.getByLabel("Prestaciones de la orden 1234567801", { exact: true });
}

for (const width of [375, 1280]) {
  test(`at ${width} px an analyte opens to its chart with the reference band and the same values as a table`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const chartChunks: string[] = [];
    page.on("request", (request) => {
      if (/AnalyteChart|recharts/.test(request.url())) chartChunks.push(request.url());
    });
    const procedures = await openFirstOrder(page);
    expect(chartChunks).toEqual([]); // the charting library is not downloaded until a chart is asked for

    await procedures.getByRole("button", { name: "Ver evolución de Glucosa" }).click();
    const trend = page.getByRole("region", { name: "Evolución de Glucosa" });
    const table = trend.getByRole("table", { name: "Valores de Glucosa" });
    for (const column of ["Fecha", "Valor", "Rango de referencia", "Resultado"]) {
      await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
    }
    const rows = table.locator("tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);
    await expect(rows.first().locator("td").first()).toHaveText(/^\d\d-\d\d-\d{4}$/);
    await expect(rows.first()).toContainText("70 – 100 mg/dL");

    const chart = trend.getByTestId("trend-chart");
    await expect(chart.locator("svg.recharts-surface")).toBeVisible();
    await expect(chart.locator(".trend-chart__band")).toHaveCount(1);
    // One point per row; the out-of-range ones are marked in the chart and named in the table alike.
    const outOfRangeRows = await table.locator("tbody tr", { hasText: /Sobre el rango|Bajo el rango/ }).count();
    await expect(chart.locator(".trend-chart__dot, .trend-chart__dot--out")).toHaveCount(await rows.count());
    await expect(chart.locator(".trend-chart__dot--out")).toHaveCount(outOfRangeRows);
    expect(chartChunks.length).toBeGreaterThan(0);

    // Both fit the screen: nothing wider than the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await trend.getByRole("button", { name: "Cerrar evolución" }).click();
    await expect(trend).toHaveCount(0);
  });
}

test("when the evolution cannot be loaded the patient is told and may retry", async ({ page }) => {
  const procedures = await openFirstOrder(page);
  await page.route("**/trpc/laboratory.series**", (route) => route.abort());
  await procedures.getByRole("button", { name: "Ver evolución de Colesterol total" }).click();
  await expect(page.getByText("Hubo un error al procesar la solicitud, por favor intente más tarde").first()).toBeVisible();
  const trend = page.getByRole("region", { name: "Evolución de Colesterol total" });
  await expect(trend.getByRole("button", { name: "Reintentar" })).toBeVisible();
  await page.unroute("**/trpc/laboratory.series**");
  await trend.getByRole("button", { name: "Reintentar" }).click();
  await expect(trend.getByRole("table", { name: "Valores de Colesterol total" })).toBeVisible();
});
