import { expect, type Page } from "@playwright/test";
import { completeSecondFactorStep, demoSecretOf } from "./support/second-factor.ts";

// Shared steps of the shell-*.spec.ts browser tests.

export const accounts = {
  patient: { rut: "12.345.678-5", password: "Paciente2026" },
  firstLogin: { rut: "15.555.555-6", password: "Temporal2026" },
  incomplete: { rut: "16.789.012-1", password: "Paciente2026" },
  admin: { rut: "11.111.111-1", password: "Admin2026" },
} as const;

/**
 * Logs in through /login (patient) or /admin-login (staff) and waits until the login screen is left. `origin` picks a
 * clinic's own portal (http://<alias>.localhost:<port>); by default the test portal's.
 */
export async function logIn(
  page: Page,
  account: { rut: string; password: string },
  portal: "patient" | "staff" = "patient",
  origin = "",
): Promise<void> {
  const loginPath = portal === "staff" ? "/admin-login" : "/login";
  await page.goto(`${origin}${loginPath}`);
  await page.getByLabel("Rut").fill(account.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  // A staff account with a second factor (the demo staff) gets the 'Verificación en dos pasos' step (issue 27).
  const secret = portal === "staff" ? demoSecretOf(account.rut) : undefined;
  if (secret) {
    await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
    await completeSecondFactorStep(page, secret, new RegExp(`${loginPath}$`));
  }
  await expect(page).not.toHaveURL(new RegExp(`${loginPath}$`));
}

/** Number of keys in localStorage and sessionStorage. */
export function storedKeys(page: Page): Promise<{ local: number; session: number }> {
  return page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
}
