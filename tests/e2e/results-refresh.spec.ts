import { expect, test, type Route } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// Issue 26: the server keeps the laboratory's and the PACS's answer to a results list for up to a minute; 'Actualizar'
// on each screen reloads the list asking the provider again (tRPC input refresh: true). While it runs the button says
// 'Actualizando…' and ignores presses; after it, the list is there again and the time of the update is told.

const screens = [
  {
    name: "Laboratorio",
    path: "/dashboard/laboratory",
    heading: "Exámenes de laboratorio",
    procedure: "laboratory.orders",
    row: /Orden N° \d+/,
    rows: 6,
  },
  {
    name: "Imagenología",
    path: "/dashboard/imaging",
    heading: "Exámenes de imagenología",
    procedure: "imaging.studies",
    row: /N° IM\d+/,
    rows: 5,
  },
] as const;
const viewports = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
] as const;

/** The tRPC inputs the page sent for the list (the link may batch several calls in one request). */
const listInputs = (url: string, procedure: string): unknown[] => {
  const parsed = new URL(url);
  if (!parsed.pathname.split("/").pop()!.split(",").includes(procedure)) return [];
  const input = parsed.searchParams.get("input");
  if (!input) return [];
  const value = JSON.parse(input) as Record<string, unknown>;
  return "0" in value ? Object.values(value) : [value];
};

for (const screen of screens) {
  for (const viewport of viewports) {
    test(`${screen.name} at ${viewport.width} px: 'Actualizar' reloads the list asking the provider again`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const inputs: unknown[] = [];
      page.on("request", (request) => inputs.push(...listInputs(request.url(), screen.procedure)));
      await logIn(page, accounts.patient);
      await page.goto(screen.path);
      await expect(page.getByRole("heading", { name: screen.heading })).toBeVisible();
      const rows = page.getByText(screen.row);
      await expect(rows).toHaveCount(screen.rows);
      expect(inputs.length).toBeGreaterThan(0);
      expect(inputs.every((input) => (input as { refresh?: boolean }).refresh !== true)).toBe(true);

      // Hold the refreshing call, to see the button while it runs.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/trpc/${screen.procedure}?**`, async (route: Route) => {
        await held;
        await route.continue();
      });
      const button = page.getByRole("button", { name: "Actualizar", exact: true });
      await button.focus();
      await page.keyboard.press("Enter");
      const waiting = page.getByRole("button", { name: "Actualizando…" });
      await expect(waiting).toBeVisible();
      await expect(waiting).toHaveAttribute("aria-disabled", "true");
      await expect(waiting).toBeFocused();
      await page.keyboard.press("Enter"); // ignored while it runs
      release();

      await expect(page.getByRole("status").filter({ hasText: /^Lista actualizada a las \d\d:\d\d\.$/ })).toBeVisible();
      await expect(button).toBeFocused();
      await expect(button).not.toHaveAttribute("aria-disabled", "true");
      await expect(rows).toHaveCount(screen.rows);
      const refreshed = inputs.filter((input) => (input as { refresh?: boolean }).refresh === true);
      expect(refreshed).toHaveLength(1);
    });
  }
}
