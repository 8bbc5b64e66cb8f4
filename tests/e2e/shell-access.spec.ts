import { expect, test } from "@playwright/test";
import { accounts, holdAppCodeUntil, logIn, storedKeys } from "./shell-helpers.ts";
import { createPatientWithIncompleteProfile } from "./support/accounts.ts";

test.describe("route guards", () => {
  test("a patient opening a staff page gets 'Acceso denegado' and goes to the account settings", async ({ page }) => {
    await logIn(page, accounts.patient);
    await page.goto("/admin/admin-users");
    const modal = page.getByRole("dialog", { name: "Acceso denegado" });
    await expect(modal).toContainText("No tiene permiso para acceder a esta página");
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    await modal.getByRole("button", { name: "Entendido" }).click();
    await expect(modal).toBeHidden();
  });

  test("staff opening a patient page get 'Acceso denegado' and go to the users list", async ({ page }) => {
    await logIn(page, accounts.admin, "staff");
    await page.goto("/dashboard/scheduling");
    await expect(page.getByRole("dialog", { name: "Acceso denegado" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
  });

  test("without a token a portal page sends to the login", async ({ page }) => {
    await page.goto("/dashboard/scheduling");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an invalid stored token is cleared and sends to the login", async ({ page }) => {
    await logIn(page, accounts.patient);
    await page.evaluate(() => localStorage.setItem("token", "token-alterado"));
    await page.goto("/dashboard/laboratory");
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });
  });

  test("a patient with an incomplete profile is sent to complete the data", async ({ page }) => {
    // A fresh account: the seeded incomplete patient belongs to the account-settings specs, which complete it.
    await logIn(page, await createPatientWithIncompleteProfile());
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    await page.goto("/dashboard/scheduling");
    const modal = page.getByRole("dialog", { name: "Complete sus datos" });
    await expect(modal).toContainText("Para utilizar el portal deberá completar sus datos personales");
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    await modal.getByRole("button", { name: "Entendido" }).click();
    // Moving through the menu is guarded too.
    await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Laboratorio" }).click();
    await expect(page.getByRole("dialog", { name: "Complete sus datos" })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  });

  test("on the Maitenes portal a patient opening hospital bills by address goes to scheduling", async ({ page }) => {
    // The test portal runs on localhost, which is the Maitenes portal.
    await logIn(page, accounts.patient);
    await page.goto("/dashboard/my-bills");
    await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
  });

  test("when the app's code cannot be downloaded, a portal page says so and retrying loads it", async ({ page }) => {
    await logIn(page, accounts.patient);
    // The signed-in app's own module (its name starts with "App-"): as if the connection dropped or a release replaced it.
    const appModule = /\/assets\/App-[^/]+\.js$/;
    await page.route(appModule, (route) => route.abort("internetdisconnected"));
    await page.goto("/dashboard/scheduling");
    const failure = page.getByRole("alert");
    await expect(failure).toContainText("No se pudo cargar el portal");
    await expect(failure).toContainText("Revise su conexión e intente nuevamente.");
    await page.unroute(appModule);
    await failure.getByRole("button", { name: "Reintentar" }).click();
    await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
    await expect(page.getByRole("navigation", { name: "Menú principal" })).toBeVisible();
  });

  test("a signed-in page's first load asks about the session while the app's code is still coming, and only once", async ({ page }) => {
    await logIn(page, accounts.patient);
    // Hold the signed-in app's module back until the session questions have been asked (they must not wait for it).
    let asked!: () => void;
    const sessionAsked = new Promise<void>((resolve) => (asked = resolve));
    const questions: string[] = [];
    page.on("request", (request) => {
      const call = /\/trpc\/(auth\.validateToken|terms\.status)/.exec(request.url());
      if (!call) return;
      questions.push(call[1]!);
      if (questions.includes("auth.validateToken") && questions.includes("terms.status")) asked();
    });
    await page.route(/\/assets\/App-[^/]+\.js$/, async (route) => {
      await sessionAsked;
      await route.continue();
    });
    await page.goto("/dashboard/laboratory");
    await expect(page.getByRole("navigation", { name: "Menú principal" })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/laboratory$/);
    // The guard took the answers already asked: one question each for the whole load.
    expect(questions.sort()).toEqual(["auth.validateToken", "terms.status"]);
  });

  test("a signed-in page's first load fetches the page's own code while the app's code is still coming", async ({ page }) => {
    await logIn(page, accounts.patient);
    let pageRequested!: () => void;
    const pageCodeAsked = new Promise<void>((resolve) => (pageRequested = resolve));
    page.on("request", (request) => {
      if (/\/assets\/LaboratoryPage-[^/]+\.js$/.test(request.url())) pageRequested();
    });
    // Hold the app's module back until the page's code was asked for (or 5 s: then the page waited for the app).
    const held = await holdAppCodeUntil(page, pageCodeAsked);
    await page.goto("/dashboard/laboratory");
    await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
    expect(held.eventFirst).toBe(true);
  });
});
