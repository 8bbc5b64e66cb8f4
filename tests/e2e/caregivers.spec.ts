import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { openUserByRut } from "./users-helpers.ts";
import { e2ePorts } from "./support/ports.ts";
import { expiredCaregiver, expiredDependent } from "./support/caregiver-fixtures.ts";

// Issue 30: a caregiver switches the patient area to a person in their care ('Ver como:'); staff create and revoke
// links on the dependent's edit page ('Cuidadores'); an adult dependent revokes a caregiver in 'Mi cuenta'.
// Demo data: María (12.345.678-5) cares for Tomás (a minor: every part) and José (an adult: scheduling and results).

/** Hospital Clínico del Sur's portal: the dependents' clinic, whose menu has hospital bills (the default portal's has not). */
const south = `http://clinicasur.localhost:${e2ePorts.portal}`;
const jose = { rut: "6.543.210-2", password: "Paciente2026" };
const verComo = (page: Page) => page.getByLabel("Ver como:");

async function addCaregiver(page: Page, caregiverRut: string) {
  const section = page.getByRole("form", { name: "Agregar cuidador" });
  await section.getByLabel("RUT del cuidador").fill(caregiverRut);
  await section.getByLabel("Relación").selectOption({ label: "Otra relación" });
  await section.getByLabel("Documento que vio").fill("Poder simple firmado ante la clínica");
  // An adult's link lasts at most a year (issue 42): six months from today.
  await section.getByLabel("Fecha de término", { exact: true }).fill(new Date(Date.now() + 182 * 86_400_000).toISOString().slice(0, 10));
  await section.getByText("Resultados", { exact: true }).click();
  await section.getByRole("button", { name: "Agregar cuidador" }).click();
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`caregivers at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a caregiver switches to each dependent: every screen shows their data and their name stays in the header", async ({ page }) => {
      test.setTimeout(90_000);
      await logIn(page, accounts.patient, "patient", south);
      await expect(verComo(page)).toBeVisible();
      await verComo(page).selectOption({ label: "Tomás González Pérez" });
      const header = page.getByTestId("acting-for");
      await expect(header).toHaveText(/Tomás González Pérez/);

      await page.goto(`${south}/dashboard/laboratory`);
      await expect(page.getByText("Datos de Tomás González Pérez, RUT 24.567.890-8")).toBeVisible();
      const report = page.getByRole("button", { name: /Ver informe de la orden/ }).first();
      await expect(report).toBeVisible();
      await expect(report).toHaveAccessibleName(/orden 24567890/);
      await expect(header).toBeVisible();

      await page.goto(`${south}/dashboard/my-bills`);
      await expect(page.locator("[data-account-code]")).toHaveCount(2);
      await expect(header).toHaveText(/Tomás González Pérez/);

      // José's link covers scheduling and results, not bills.
      await verComo(page).selectOption({ label: "José González Rojas" });
      await expect(header).toHaveText(/José González Rojas/);
      await expect(page.getByRole("alert")).toHaveText(/Su vínculo con José González Rojas no incluye cuentas y pagos/);
      await expect(page.locator("[data-account-code]")).toHaveCount(0);
      await page.goto(`${south}/dashboard/scheduling`);
      await expect(page.getByText("Reservando hora para José González Rojas, RUT 6.543.210-2")).toBeVisible();

      await verComo(page).selectOption({ index: 0 });
      await expect(header).toBeHidden();
      await page.goto(`${south}/dashboard/my-bills`);
      await expect(page.locator("[data-account-code]").first()).toBeVisible();
      expect(await page.locator("[data-account-code]").count()).toBeGreaterThan(2);
    });

    test("staff add a caregiver on the patient's edit page and are told of a duplicate; the patient revokes that caregiver in 'Mi cuenta'", async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000);
      await logIn(page, accounts.admin, "staff");
      await openUserByRut(page, jose.rut);
      const section = page.getByRole("region", { name: "Cuidadores" });
      await expect(section.getByRole("cell", { name: /María González Pérez/ }).first()).toBeVisible();

      // Nothing chosen: the form says what is missing and sends nothing.
      await section.getByRole("button", { name: "Agregar cuidador" }).click();
      await expect(section.getByText("Elija al menos una parte del portal")).toBeVisible();
      // An empty RUT is said to be missing, not unknown (issue 45).
      await expect(section.getByText("Ingrese el RUT del cuidador, por ejemplo 12.345.678-5")).toBeVisible();
      await expect(section.getByText("No hay un paciente con ese RUT")).toHaveCount(0);

      await addCaregiver(page, accounts.incomplete.rut);
      await expect(page.getByText("Cuidador agregado")).toBeVisible();
      const row = section.getByRole("row", { name: /Pedro Soto/ }).filter({ hasText: "Vigente" });
      await expect(row).toHaveCount(1);
      await addCaregiver(page, accounts.incomplete.rut);
      await expect(section.getByRole("alert")).toHaveText(
        "Esta persona ya tiene un vínculo vigente con ese cuidador. Renuévelo o revóquelo.",
      );

      // José, with his own account, sees Pedro among his caregivers and revokes him.
      const joseContext = await browser.newContext({ viewport, locale: "es-CL", timezoneId: "America/Santiago" });
      const josePage = await joseContext.newPage();
      await logIn(josePage, jose, "patient", south);
      await josePage.goto(`${south}/dashboard/account-settings`);
      const mine = josePage.getByRole("region", { name: "Mis cuidadores" });
      const pedro = mine.getByRole("listitem").filter({ hasText: "Pedro Soto" });
      await expect(pedro).toBeVisible();
      // The relation reads for anyone: 'Otra relación', never '(Otro)' (issue 45).
      await expect(pedro).toContainText("(Otra relación)");
      await expect(mine).not.toContainText("(Otro)");
      await pedro.getByRole("button", { name: "Revocar" }).click();
      await josePage.getByRole("dialog").getByRole("button", { name: "Continuar" }).click();
      await expect(mine.getByRole("listitem").filter({ hasText: "Pedro Soto" })).toHaveCount(0);
      await expect(mine.getByRole("listitem").filter({ hasText: "María González Pérez" })).toBeVisible();
      await joseContext.close();

      await page.reload();
      await expect(section.getByRole("row", { name: /Pedro Soto/ }).filter({ hasText: "Vigente" })).toHaveCount(0);
      await expect(
        section
          .getByRole("row", { name: /Pedro Soto/ })
          .filter({ hasText: "Revocado" })
          .first(),
      ).toBeVisible();
    });

    test("a link that expired is refused: a 'Ver como:' choice made while it was live falls back to the caregiver's own data", async ({
      page,
    }) => {
      await logIn(page, expiredCaregiver, "patient", south);
      // The tab had chosen Pedro while the link was live; it ended yesterday.
      const pedro = { id: expiredDependent.id, name: expiredDependent.name, rut: expiredDependent.rut };
      await page.evaluate((person) => sessionStorage.setItem("actuarPor", JSON.stringify(person)), pedro);
      await page.goto(`${south}/dashboard/laboratory`);
      await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem("actuarPor"))).toBeNull();
      await expect(page.getByText(/Datos de Pedro/)).toHaveCount(0);
      await expect(page.getByTestId("acting-for")).toBeHidden();
      await expect(verComo(page)).toHaveCount(0);
    });
  });
}
