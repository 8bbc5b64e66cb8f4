import { expect, test } from "@playwright/test";

// /api/docs renders the API document in the browser under the portal's own CSP (no CDN, no inline script).

test("the API docs page lists the contract's operations and opens one with its schemas", async ({ page }) => {
  // Swagger UI renders the whole document (83 operations now) in the browser: on a loaded 2-core machine that alone
  // can take most of the default 30 s.
  test.slow();
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") blocked.push(message.text());
  });
  page.on("pageerror", (error) => blocked.push(error.message));
  const response = await page.goto("/api/docs");
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");

  // Swagger UI builds the whole page from the document in the browser: on a loaded 2-core machine (npm test beside a
  // running npm start) its first render took longer than the usual 7 s, with every file served in under 0.6 s.
  await expect(page.getByRole("heading", { name: /Portal Pacientes: API REST/ })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Autenticación", { exact: true }).first()).toBeVisible();
  const login = page.locator(".opblock", { hasText: "/api/rcr/v1/auth/new-login" });
  await expect(login).toContainText("Inicio de sesión de pacientes");
  await login.locator(".opblock-summary").click();
  await expect(login.getByText("Acceso: público, sin token.")).toBeVisible();
  await expect(login.getByText("Request body")).toBeVisible();
  await expect(login.locator(".response").first()).toContainText("200");
  // Routes that need a session offer the bearer token (the OpenAPI security scheme).
  await expect(page.getByRole("button", { name: /Authorize/ }).first()).toBeVisible();
  expect(blocked).toEqual([]);
});
