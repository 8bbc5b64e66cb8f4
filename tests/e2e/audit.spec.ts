import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { executive } from "./users-helpers.ts";
import { normalizeRut } from "../../server/contract/rut.ts";
import { AUDIT_ACTIONS } from "../../server/contract/audit.schemas.ts";
import { everyActionDay } from "./support/audit-fixtures.ts";
import { wordsBrokenAcrossLines } from "./support/broken-words.ts";

// 'Auditoría' (/admin/audit): an admin filters the audit trail and exports it as CSV; an executive has no way in.

test("an admin filters the audit trail by user and action, is told off for a reversed range, and exports the rows as CSV", async ({
  page,
}) => {
  await logIn(page, accounts.admin, "staff");
  await page.getByRole("link", { name: "Auditoría" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("heading", { name: "Auditoría", level: 1 })).toBeVisible();

  // This worker's admin: signed in through the form by this worker (its session is shared), so its logins are recorded.
  await page.getByLabel("RUT usuario").fill(accounts.admin.rut);
  await page.getByLabel("Acción").selectOption("login.staff");
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${accounts.admin.rut.replace(/\./g, "\\.")}&action=login\\.staff`));
  const rows = page.getByRole("table", { name: "Eventos de auditoría" }).locator("tbody tr");
  // Issue 33: the action in Spanish, not its code; the time as dd-mm-aaaa HH:MM:SS.
  await expect(rows.first()).toContainText("Inicio de sesión del personal");
  await expect(rows.first()).not.toContainText("login.staff");
  await expect(rows.first()).toContainText(/\d\d-\d\d-\d{4} \d\d:\d\d:\d\d/);
  await expect(rows.first()).toContainText(accounts.admin.rut);
  for (const row of await rows.all()) await expect(row).toContainText("Inicio de sesión del personal");

  await page.getByLabel("Desde").fill("2026-03-05");
  await page.getByLabel("Hasta").fill("2026-03-01");
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page.getByRole("alert")).toContainText("La fecha Desde no puede ser posterior a la fecha Hasta");
  await page.getByLabel("Desde").fill("");
  await page.getByLabel("Hasta").fill("");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Exportar CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFFFecha (hora de Chile);Acción;Resultado;")).toBe(true);
  const lines = csv.trimEnd().split("\r\n").slice(1);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toContain(`;login.staff;ok;${normalizeRut(accounts.admin.rut)};`);
});

test("an executive sees no 'Auditoría' in the menu and is refused at /admin/audit", async ({ page }) => {
  await logIn(page, executive, "staff");
  await expect(page.getByRole("link", { name: "Usuarios y Pacientes" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Auditoría" })).toHaveCount(0);
  await page.goto("/admin/audit");
  await expect(page.getByRole("alert")).toContainText("No tiene permiso para acceder a esta página");
  await expect(page.getByRole("table", { name: "Eventos de auditoría" })).toHaveCount(0);
});

// Issue 45 §10: the filter and the table showed raw codes ('login.second-factor', 'session.end', …). The list of actions
// is the server's own (AUDIT_ACTIONS, equal to the AuditAction type), so an action added without a label fails here.
const spanishLabel = /^[A-ZÁÉÍÓÚÑ][a-záéíóúñü]+( [a-záéíóúñüA-ZÁÉÍÓÚÑ]+)*$/;

test("every action the server can write reads in Spanish, in the 'Acción' filter and in the table", async ({ page }) => {
  // It reads every option and every row of every page of the trail (one row per action): more than 30 s on a busy machine.
  test.slow();
  await logIn(page, accounts.admin, "staff");
  await page.goto("/admin/audit");
  const filter = page.getByLabel("Acción");
  for (const action of AUDIT_ACTIONS) {
    const label = (await filter.locator(`option[value="${action}"]`).textContent())?.trim() ?? "";
    expect(label, action).not.toBe(action);
    expect(label, action).toMatch(spanishLabel);
  }

  await page.getByLabel("Desde").fill(everyActionDay);
  await page.getByLabel("Hasta").fill(everyActionDay);
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page.getByRole("status").filter({ hasText: "eventos" })).toHaveText(`${AUDIT_ACTIONS.length} eventos`);
  const seen = new Map<string, string>();
  const rows = page.getByRole("table", { name: "Eventos de auditoría" }).locator("tbody tr");
  const firstAction = rows.first().locator("td:nth-child(2)");
  for (let pageNumber = 1; seen.size < AUDIT_ACTIONS.length; pageNumber++) {
    const previousFirst = pageNumber > 1 ? await firstAction.getAttribute("title") : null;
    if (pageNumber > 1) await page.getByRole("button", { name: `Página ${pageNumber}`, exact: true }).click();
    await expect(page).toHaveURL(pageNumber > 1 ? new RegExp(`page=${pageNumber}`) : /admin\/audit/);
    await expect(rows.first()).toBeVisible();
    // The previous page's rows stay until the next page arrives (one row per action: its first row differs).
    if (previousFirst !== null) await expect(firstAction).not.toHaveAttribute("title", previousFirst);
    const before = seen.size;
    for (const cell of await rows.locator("td:nth-child(2)").all()) {
      seen.set((await cell.getAttribute("title")) ?? "", (await cell.textContent())?.trim() ?? "");
    }
    expect(seen.size, `page ${pageNumber} added rows`).toBeGreaterThan(before);
  }
  expect([...seen.keys()].sort()).toEqual([...AUDIT_ACTIONS].sort());
  for (const [action, label] of seen) {
    expect(label, action).not.toBe(action);
    expect(label, action).toMatch(spanishLabel);
  }
});

for (const width of [375, 1280]) {
  test(`at ${width} px a refused RUT filter clears the rows of the search before (issue 45)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
    await logIn(page, accounts.admin, "staff");
    await page.goto("/admin/audit");
    const rows = page.getByRole("table", { name: "Eventos de auditoría" }).locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    await page.getByLabel("RUT usuario").fill("12.345.678-0");
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Rut inválido" })).toBeVisible();
    await expect(rows).toHaveCount(0);
    await expect(page.getByText("Corrija el filtro y presione 'Buscar' para ver los eventos.")).toBeVisible();
  });
}

// Issue 45, low list: on a phone the table showed two cut columns and hid the rest behind a sideways scroll. At 375 px
// each event is a card with every column's name beside its value, all inside the screen and no word cut; at 1280 px it
// is still a table, one line of cells per event.
const auditColumns = ["Fecha", "Acción", "Resultado", "Usuario", "Paciente", "Recurso", "IP"];

test("at 375 px every column of an audit event is readable, each named beside its value", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await logIn(page, accounts.admin, "staff");
  await page.goto("/admin/audit");
  const table = page.getByRole("table", { name: "Eventos de auditoría" });
  const row = table
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .first();
  await expect(row).toBeVisible();
  const cells = row.getByRole("cell");
  await expect(cells).toHaveCount(auditColumns.length);
  for (const [index, column] of auditColumns.entries()) {
    const cell = cells.nth(index);
    // Its column's name is shown beside the value (the card's label), and the whole cell is on the screen.
    expect(await cell.evaluate((element) => getComputedStyle(element, "::before").content)).toBe(`"${column}"`);
    const box = (await cell.boundingBox())!;
    expect(box.x, column).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, column).toBeLessThanOrEqual(375);
    expect(await cell.evaluate((element) => element.scrollWidth - element.clientWidth), column).toBeLessThanOrEqual(0);
  }
  expect(await wordsBrokenAcrossLines(row)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  expect(await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth)).toBe(0);
});

test("at 1280 px the audit events are still a table with its column headers", async ({ page }) => {
  await logIn(page, accounts.admin, "staff");
  await page.goto("/admin/audit");
  const table = page.getByRole("table", { name: "Eventos de auditoría" });
  for (const column of auditColumns) await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  const row = table
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .first();
  await expect(row).toBeVisible();
  const tops = await row.getByRole("cell").evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
});
