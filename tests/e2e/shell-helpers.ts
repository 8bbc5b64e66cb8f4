import { expect, type Page } from "@playwright/test";
import { completeSecondFactorStep, staffSecretOf } from "./support/second-factor.ts";
import { currentWorkerStaff } from "./support/staff-accounts.ts";
import { e2eBaseUrl } from "./support/ports.ts";

// Shared steps of the shell-*.spec.ts browser tests.

const workerAdmin = currentWorkerStaff().admin;

export const accounts = {
  patient: { rut: "12.345.678-5", password: "Paciente2026" },
  firstLogin: { rut: "15.555.555-6", password: "Temporal2026" },
  incomplete: { rut: "16.789.012-1", password: "Paciente2026" },
  /** This worker's own admin (support/staff-accounts.ts), enrolled in the second factor like the demo admin. */
  admin: { rut: workerAdmin.rut, password: workerAdmin.password },
  /** The README's demo admin, for the tests of the demo account itself. */
  demoAdmin: { rut: "11.111.111-1", password: "Admin2026" },
} as const;

/** What a browser keeps of a session: the app's localStorage and sessionStorage entries. */
interface StoredSession {
  local: Record<string, string>;
  session: Record<string, string>;
}

/**
 * The staff sessions this worker opened through the form, by origin and RUT: its signed-in state, shared by its tests.
 * The portal takes one second-factor code per account and 30 s step (three at once: the previous, current and next),
 * so logins through the form past those wait for the clock (support/second-factor.ts); a test that only needs to be
 * signed in as staff gets the worker's open session instead, checked first with GET /auth/me (a test that logged it
 * out, or anything else that ended it, makes the next test log in through the form again).
 */
const staffSessions = new Map<string, StoredSession>();
const STAFF_HOME = "/admin/admin-users";

async function resumeStaffSession(page: Page, key: string, origin: string): Promise<boolean> {
  const saved = staffSessions.get(key);
  if (!saved) return false;
  // Asked of the test portal's own address: Node does not resolve a clinic's <alias>.localhost (Chromium does).
  // Absolute: a spec whose baseURL is a clinic's host (a11y/visual.spec.ts) would otherwise send this there (ENOTFOUND).
  const me = await page.request.get(`${e2eBaseUrl}/api/rcr/v1/auth/me`, { headers: { authorization: `Bearer ${saved.local.token}` } });
  if (!me.ok()) {
    staffSessions.delete(key);
    return false;
  }
  // Storage belongs to the origin: write it from an empty page of that origin (answered here, not by the portal).
  const blank = `${origin}/e2e-empty-page`;
  await page.route(blank, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>e2e</title>" }));
  await page.goto(blank);
  await page.evaluate((stored) => {
    for (const [name, value] of Object.entries(stored.local)) localStorage.setItem(name, value);
    for (const [name, value] of Object.entries(stored.session)) sessionStorage.setItem(name, value);
  }, saved);
  await page.unroute(blank);
  await page.goto(`${origin}${STAFF_HOME}`);
  await expect(page).toHaveURL(new RegExp(`${STAFF_HOME}$`));
  return true;
}

/**
 * Logs in through /login (patient) or /admin-login (staff) and waits until the login screen is left. `origin` picks a
 * clinic's own portal (http://<alias>.localhost:<port>); by default the test portal's. Staff with a second factor
 * (this worker's admin and executive, the demo staff) get this worker's open session when there is one, on 'Usuarios y Pacientes' as after the form; a test of
 * the login itself passes `throughTheForm`.
 */
export async function logIn(
  page: Page,
  account: { rut: string; password: string },
  portal: "patient" | "staff" = "patient",
  origin = "",
  options: { throughTheForm?: boolean } = {},
): Promise<void> {
  const reusable = portal === "staff" && !options.throughTheForm && staffSecretOf(account.rut) !== undefined;
  const key = `${origin}|${account.rut}`;
  if (reusable && (await resumeStaffSession(page, key, origin))) return;
  const loginPath = portal === "staff" ? "/admin-login" : "/login";
  await page.goto(`${origin}${loginPath}`);
  await page.getByLabel("Rut").fill(account.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  // A staff account with a second factor (this worker's staff, the demo staff) gets the 'Verificación en dos pasos' step (issue 27).
  const secret = portal === "staff" ? staffSecretOf(account.rut) : undefined;
  if (secret) {
    await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
    await completeSecondFactorStep(page, secret, new RegExp(`${loginPath}$`));
  }
  await expect(page).not.toHaveURL(new RegExp(`${loginPath}$`));
  if (reusable && new URL(page.url()).pathname === STAFF_HOME) {
    staffSessions.set(
      key,
      await page.evaluate(() => ({
        local: Object.fromEntries(Object.entries(localStorage)),
        session: Object.fromEntries(Object.entries(sessionStorage)),
      })),
    );
  }
}

/** Number of keys in localStorage and sessionStorage. */
export function storedKeys(page: Page): Promise<{ local: number; session: number }> {
  return page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
}

/**
 * Holds the signed-in app's module back until `event` happens (or 5 s have passed): what must not wait for the app's
 * code goes out while it is held. `eventFirst` says, once the page has loaded, whether `event` came first.
 */
export async function holdAppCodeUntil(page: Page, event: Promise<unknown>): Promise<{ readonly eventFirst: boolean }> {
  const outcome = { eventFirst: false };
  await page.route(/\/assets\/App-[^/]+\.js$/, async (route) => {
    outcome.eventFirst = await Promise.race([
      event.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5000)),
    ]);
    await route.continue();
  });
  return outcome;
}
