import { expect, test } from "@playwright/test";
import { accounts, logIn, storedKeys } from "./shell-helpers.ts";

const widthOf = async (locator: import("@playwright/test").Locator) => (await locator.boundingBox())?.width;

test.describe("portal sidebar", () => {
  test("at 1280 px the sidebar is 250 px wide with labels and the current page selected", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await logIn(page, accounts.patient);
    const sidebar = page.getByTestId("sidebar");
    await expect.poll(() => widthOf(sidebar)).toBe(250);
    const menu = page.getByRole("navigation", { name: "Menú principal" });
    // The test portal runs on localhost, i.e. the Maitenes portal, whose patient menu has no hospital bills.
    await expect(menu.getByRole("link")).toHaveText(["Agendamiento", "Mis citas", "Imagenología", "Laboratorio", "Mis datos"]);
    await expect(page.getByRole("button", { name: "Expandir menú" })).toHaveCount(0);
    await menu.getByRole("link", { name: "Agendamiento" }).click();
    await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
    await expect(menu.getByRole("link", { name: "Agendamiento" })).toHaveAttribute("aria-current", "page");
    await expect(sidebar.getByRole("link", { name: "Ayuda" })).toHaveAttribute("target", "_blank");
    await expect(sidebar.getByRole("link", { name: "Encuesta" })).toHaveAttribute("target", "_blank");
  });

  test("at 1000 px it collapses to 60 px of icons and the toggle expands it", async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 800 });
    await logIn(page, accounts.patient);
    const sidebar = page.getByTestId("sidebar");
    await expect.poll(() => widthOf(sidebar)).toBe(60);
    await expect(sidebar.getByText("Agendamiento")).toBeHidden();
    await expect(sidebar.getByRole("link", { name: "Agendamiento" })).toBeVisible();
    await page.getByRole("button", { name: "Expandir menú" }).click();
    await expect.poll(() => widthOf(sidebar)).toBe(250);
    await expect(sidebar.getByText("Agendamiento")).toBeVisible();
    await sidebar.getByRole("link", { name: "Laboratorio" }).click();
    await expect(page).toHaveURL(/\/dashboard\/laboratory$/);
    await expect.poll(() => widthOf(sidebar)).toBe(60);
  });

  test("'Cerrar sesión' clears the storage; a patient returns to the login, staff to the staff login", async ({ page }) => {
    await logIn(page, accounts.patient);
    await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });

    await logIn(page, accounts.admin, "staff");
    await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/admin-login$/);
    await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });
  });

  test("'Cerrar sesión' ends the session on the server: the token it held no longer opens anything", async ({ page, request }) => {
    await logIn(page, accounts.patient);
    const token = await page.evaluate(() => localStorage.getItem("token"));
    expect(token).toBeTruthy();
    const me = () => request.get("/api/rcr/v1/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status()).toBe(200);
    await page.getByRole("button", { name: "Cerrar sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await me()).status()).toBe(401);
  });

  test("the blocking spinner shows and locks the page scroll while a request is slow", async ({ page }) => {
    await logIn(page, accounts.patient);
    await page.route("**/trpc/auth.validateToken**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Imagenología" }).click();
    await expect(page.getByTestId("blocking-spinner")).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe("hidden");
    await expect(page).toHaveURL(/\/dashboard\/imaging$/);
    await expect(page.getByTestId("blocking-spinner")).toBeHidden();
    await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe("");
  });
});
