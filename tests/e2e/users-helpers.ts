import { randomInt } from "node:crypto";
import { expect, type Locator, type Page } from "@playwright/test";
import { rutOf } from "../helpers/fixtures.ts";
import { currentWorkerStaff } from "./support/staff-accounts.ts";

// Shared steps of the users-*.spec.ts browser tests. The specs share one seeded database with other files running at
// the same time, so they only create and change accounts of their own (RUT bodies 20.000.000-28.999.999, a range
// the seed and the other specs do not use) and never touch the demo accounts.

const workerExecutive = currentWorkerStaff().executive;
/** This worker's own executive (support/staff-accounts.ts): the demo executive's clinics, a second factor of its own. */
export const executive = { rut: workerExecutive.rut, password: workerExecutive.password } as const;

/** A valid RUT no other account uses. */
export function uniqueUserRut(): string {
  return rutOf(20_000_000 + randomInt(9_000_000));
}

/** A unique e-mail for that RUT. */
export function emailFor(rut: string, tag = "usuario"): string {
  return `e2e.${tag}.${rut.replace(/\D/g, "").toLowerCase()}@correo.cl`;
}

/** A surname of letters only (SPEC §5 names) that no other account has. */
export function uniqueSurname(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return `Zeta${Array.from({ length: 7 }, () => letters[randomInt(letters.length)]).join("")}`;
}

/** The body rows of the user table (the 'No se encontraron usuarios' row included). */
export function userRows(page: Page): Locator {
  return page.getByRole("table", { name: "Usuarios" }).locator("tbody tr");
}

/** Applies a search on /admin/admin-users with Enter, and waits for the address to carry it. */
export async function searchUsers(page: Page, text: string): Promise<Locator> {
  const box = page.getByPlaceholder("RUT, Correo, Nombre, Apellidos");
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => new URL(page.url()).searchParams.get("buscar")).toBe(text);
  return userRows(page);
}

/**
 * Creates an account on /admin/create-user as the signed-in staff member (role: the 'Tipo de usuario' value, only
 * for admins) and closes the 'Cuenta creada' modal, which leads back to the list. Returns when the mail was asked for.
 */
export async function createAccountOnScreen(page: Page, account: { rut: string; email: string; role?: "0" | "1" | "2" }): Promise<Date> {
  await page.goto("/admin/create-user");
  await page.getByLabel("Rut", { exact: true }).fill(account.rut);
  await page.getByLabel("Correo electrónico").fill(account.email);
  if (account.role !== undefined) await page.getByLabel("Tipo de usuario").selectOption(account.role);
  const since = new Date(Date.now() - 1_000);
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  const created = page.getByRole("dialog", { name: "Cuenta creada" });
  await expect(created).toContainText(account.email);
  await created.getByRole("button", { name: "Entendido" }).click();
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
  return since;
}

/** Opens the edit screen of the account with that RUT through the list search and 'Modificar'. */
export async function openUserByRut(page: Page, rut: string): Promise<void> {
  await page.goto("/admin/admin-users");
  const rows = await searchUsers(page, rut);
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole("button", { name: /Modificar/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/edit-user\?userId=\d+$/);
  await expect(page.getByLabel("Rut", { exact: true })).toHaveValue(rut);
}

/** Presses 'Guardar cambios' and closes the 'Cambios actualizados' modal. */
export async function saveChanges(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  const saved = page.getByRole("dialog", { name: "Cambios actualizados" });
  await expect(saved).toContainText("¡Los cambios fueron guardados exitosamente!");
  await saved.getByRole("button", { name: "Entendido" }).click();
  await expect(saved).toBeHidden();
}

/** True when the page scrolls sideways (content wider than the viewport). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
