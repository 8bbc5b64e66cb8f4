import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { uniqueRut } from "./support/accounts.ts";
import { e2eBaseUrl } from "./support/ports.ts";

test.describe("login screens", () => {
  test("the empty path opens the patient login", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("link", { name: "Olvidé mi contraseña" })).toHaveAttribute("href", "/recover-password");
    await expect(page.getByRole("link", { name: /Ver exámenes de laboratorio/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /Ver exámenes de imagenología/ })).toBeVisible();
  });

  test("a complete patient logs in and lands on the account settings", async ({ page }) => {
    await logIn(page, accounts.patient);
    await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
    await expect(page.getByText("PORTAL PACIENTES")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Mis datos" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("the Rut is formatted while typed and an invalid one says 'Rut inválido'", async ({ page }) => {
    await page.goto("/login");
    const rut = page.getByLabel("Rut");
    await rut.pressSequentially("123456785");
    await expect(rut).toHaveValue("12.345.678-5");
    await rut.fill("12.345.678-9");
    await rut.blur();
    await expect(page.getByText("Rut inválido")).toBeVisible();
  });

  test("a wrong password shows the error banner, which can be closed", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Rut").fill(accounts.patient.rut);
    await page.getByLabel("Contraseña", { exact: true }).fill("Incorrecta2026");
    await page.getByRole("button", { name: "Ingresar" }).click();
    const banner = page.getByRole("alert").filter({ hasText: "El Rut o Contraseña ingresados son inválidos" });
    await expect(banner).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await banner.getByRole("button", { name: "Cerrar mensaje" }).click();
    await expect(banner).toBeHidden();
  });

  test("staff log in at /admin-login and land on the users list with the staff menu (an admin's with 'Solicitudes de pacientes' and 'Auditoría')", async ({
    page,
  }) => {
    await page.goto("/admin-login");
    await expect(page.getByRole("heading", { name: "Ingreso de Administrativos" })).toBeVisible();
    await expect(page.getByText(/solicite su registro/)).toBeVisible();
    await logIn(page, accounts.admin, "staff", "", { throughTheForm: true });
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
    const menu = page.getByRole("navigation", { name: "Menú principal" });
    await expect(menu.getByRole("link")).toHaveText([
      "Usuarios y Pacientes",
      "Cuentas hospitalarias",
      "Solicitudes de pacientes",
      "Auditoría",
      "Mi cuenta",
    ]);
  });

  test("a patient account cannot log in through the staff login", async ({ page }) => {
    await page.goto("/admin-login");
    await page.getByLabel("Rut").fill(accounts.patient.rut);
    await page.getByLabel("Contraseña", { exact: true }).fill(accounts.patient.password);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await expect(page.getByText("El Rut o Contraseña ingresados son inválidos")).toBeVisible();
    await expect(page).toHaveURL(/\/admin-login$/);
  });

  test("an unknown path shows the page-not-found screen", async ({ page }) => {
    await page.goto("/esta-pagina-no-existe");
    await expect(page.getByRole("heading", { name: "nopagefound !" })).toBeVisible();
    await page.goto("/dashboard/no-existe/tampoco");
    await expect(page.getByRole("heading", { name: "nopagefound !" })).toBeVisible();
  });

  test("a rate-limited login shows the same banner, with the reason underneath", async ({ page }) => {
    // Ten failures use up a RUT's attempts for the hour (the portal's default limit).
    const rut = uniqueRut();
    for (let i = 0; i < 10; i++) {
      await fetch(`${e2eBaseUrl}/api/rcr/v1/auth/new-login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rut, password: "Incorrecta1" }),
      });
    }
    await page.goto("/login");
    await page.getByLabel("Rut").fill(rut);
    await page.getByLabel("Contraseña", { exact: true }).fill("Incorrecta1");
    await page.getByRole("button", { name: "Ingresar" }).click();
    const banner = page.getByRole("alert");
    await expect(banner).toContainText("El Rut o Contraseña ingresados son inválidos");
    await expect(banner).toContainText(/Demasiados intentos fallidos\. Espere (un minuto|\d+ minutos) e intente nuevamente\./);
  });
});
