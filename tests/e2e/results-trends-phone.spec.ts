import { expect, test, type Locator, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 45 §7: on a phone the trend chart was 194 px wide, its Y axis had no unit, its dates no labels, its points were
// evenly spaced whatever the time between them, the tooltip ran past the card, the table's dates broke as
// "09-/08-/2025" and 'Resultado' hid behind a sideways scroll; at 1280 the axis text was ~11 px grey. A single result
// was drawn as a one-dot "evolution".

async function openTrend(page: Page, analyte: string): Promise<Locator> {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/laboratory");
  await page.getByRole("button", { name: "Ver prestaciones de la orden 1234567801" }).click();
  await page.getByRole("button", { name: `Ver evolución de ${analyte}` }).click();
  return page.getByRole("region", { name: `Evolución de ${analyte}` });
}

/** WCAG contrast ratio of an element's text colour (fill for SVG text, else color) on white. */
function contrastOnWhite(element: Element): number {
  const style = getComputedStyle(element);
  const colour = element instanceof SVGElement ? style.fill : style.color;
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? ["0", "0", "0"]).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 667 : 800 } });

    test("the trend chart takes the card's width, spaces points by time under dated labels, names the unit and reads at arm's length", async ({
      page,
    }) => {
      const trend = await openTrend(page, "Glucosa");
      const chart = trend.getByTestId("trend-chart");
      const svg = chart.locator("svg.recharts-surface");
      await expect(svg).toBeVisible();
      const rows = trend.getByRole("table", { name: "Valores de Glucosa" }).locator("tbody tr");
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);

      // The card's width on a phone (the table goes below it); beside the table on a wide screen.
      const card = (await trend.boundingBox())!;
      const drawn = (await svg.boundingBox())!;
      expect(drawn.width / card.width).toBeGreaterThan(width === 375 ? 0.88 : 0.5);

      // A time axis: labelled dd-mm-aa, and the gaps between points follow the days between the results.
      const ticks = chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
      await expect.poll(() => ticks.count()).toBeGreaterThanOrEqual(2);
      for (const label of await ticks.allTextContents()) expect(label).toMatch(/^\d{2}-\d{2}-\d{2}$/);
      const days = (await rows.locator("td:first-child").allTextContents()).map((text) => {
        const [day, month, year] = text.split("-").map(Number) as [number, number, number];
        return Date.UTC(year, month - 1, day) / 86_400_000;
      });
      days.sort((a, b) => a - b);
      const xs = await chart.locator(".trend-chart__dot, .trend-chart__dot--out").evaluateAll((dots) =>
        dots.map((dot) => {
          const box = dot.getBoundingClientRect();
          return box.x + box.width / 2;
        }),
      );
      xs.sort((a, b) => a - b);
      const spanDays = days.at(-1)! - days[0]!;
      const spanPx = xs.at(-1)! - xs[0]!;
      for (let i = 1; i < days.length; i++) {
        const expected = ((days[i]! - days[0]!) / spanDays) * spanPx;
        expect(Math.abs(xs[i]! - xs[0]! - expected), `point ${i}`).toBeLessThan(4);
      }

      // The unit on the Y axis; every axis text at least 14 px and dark enough on white (4.5:1).
      await expect(chart.locator(".recharts-label")).toHaveText("mg/dL");
      const texts = chart.locator(".recharts-cartesian-axis-tick-value, .recharts-label");
      const looks = await texts.evaluateAll((elements, contrast) => {
        const ratio = new Function(`return (${contrast})`)() as (element: Element) => number;
        return elements.map((element) => ({ size: parseFloat(getComputedStyle(element).fontSize), contrast: ratio(element) }));
      }, contrastOnWhite.toString());
      expect(looks.length).toBeGreaterThan(3);
      for (const look of looks) {
        expect(look.size).toBeGreaterThanOrEqual(14);
        expect(look.contrast).toBeGreaterThanOrEqual(4.5);
      }

      // The tooltip of the newest (rightmost) point stays inside the card.
      const newest = chart.locator(".trend-chart__dot, .trend-chart__dot--out");
      const boxes = await newest.evaluateAll((dots) => dots.map((dot) => dot.getBoundingClientRect().x));
      await newest.nth(boxes.indexOf(Math.max(...boxes))).hover({ force: true });
      const tooltip = chart.locator(".recharts-tooltip-wrapper");
      await expect(tooltip).toContainText("mg/dL");
      const tip = (await tooltip.boundingBox())!;
      expect(tip.x).toBeGreaterThanOrEqual(card.x);
      expect(tip.x + tip.width).toBeLessThanOrEqual(card.x + card.width);
    });

    test("the values table fits the screen with no sideways scroll and no date broken across lines", async ({ page }) => {
      const trend = await openTrend(page, "Glucosa");
      const table = trend.getByRole("table", { name: "Valores de Glucosa" });
      await expect.poll(() => table.locator("tbody tr").count()).toBeGreaterThanOrEqual(5);
      const wrap = trend.locator(".trend__table-wrap");
      expect(await wrap.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      const result = (await table.getByRole("columnheader", { name: "Resultado" }).boundingBox())!;
      expect(result.x + result.width).toBeLessThanOrEqual(width);
      const lines = await table.locator("tbody td:first-child").evaluateAll((cells) =>
        cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
      );
      for (const count of lines) expect(count).toBe(1);
    });

    test("an analyte with a single result shows that value, not a one-dot chart, with its unit written as 10³/µL", async ({ page }) => {
      const trend = await openTrend(page, "Recuento de leucocitos");
      await expect(trend.getByText(/^Hay un solo resultado: [\d,]+ 10³\/µL el \d{2}-\d{2}-\d{4}/)).toBeVisible();
      await expect(trend.getByTestId("trend-chart")).toHaveCount(0);
      await expect(trend).not.toContainText("10^3");
    });
    test("'Ver evolución' is a target of at least 44 × 44 px", async ({ page }) => {
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/laboratory");
      await page.getByRole("button", { name: "Ver prestaciones de la orden 1234567801" }).click();
      const button = page.getByRole("button", { name: "Ver evolución de Glucosa" });
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    });
  });
}
