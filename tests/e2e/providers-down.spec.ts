import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { failingPortalUrl, startFailingPortal } from "./support/failing-portal.ts";

// Issue 33, point 1: a portal whose laboratory and imaging are down (the mocks' /fallas/caida/…). The page says which
// service is not answering, that nothing is lost, and offers 'Reintentar'; it never looks like "you have no exams".

let stop: () => Promise<void>;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  stop = await startFailingPortal("providers-down");
});
test.afterAll(async () => stop());
test.use({ baseURL: failingPortalUrl("providers-down") });

const reassurance = "Sus datos están a salvo: no se ha perdido nada.";
// SPEC §8's toast of a failed results list; the message in the page says these same words.
const specToast = "Hubo un error al procesar la solicitud, por favor intente más tarde";

async function expectServiceDown(page: Page, service: string) {
  const alert = page.locator(".load-failure");
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText(`El servicio de ${service} no está respondiendo`);
  await expect(alert).toContainText(`${specToast}. ${reassurance}`);
  await expect(page.getByText(/No hay .* en el rango seleccionado/)).toHaveCount(0);
  // The toast, while it shows, says the same words as the page; it leaves after its 3 seconds and the page's stays.
  const toast = page.locator(".toast");
  await expect(toast).toHaveText(specToast);
  await expect(toast).toHaveCount(0, { timeout: 6_000 });
  await expect(alert).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(1);
  let calls = 0;
  page.on("request", (request) => {
    if (request.url().includes("/trpc/")) calls++;
  });
  await alert.getByRole("button", { name: "Reintentar" }).click();
  await expect.poll(() => calls).toBeGreaterThan(0);
  await expect(page.locator(".load-failure")).toHaveCount(1);
  await expect(page.locator(".load-failure")).toBeInViewport();
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the laboratory page says the laboratory is not answering, nothing is lost, and offers 'Reintentar'", async ({ page }) => {
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/laboratory");
      await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
      await expectServiceDown(page, "laboratorio");
    });

    test("'Mi cuenta' still opens, and its results summary says which services are not answering", async ({ page }) => {
      await logIn(page, accounts.patient);
      await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
      await expect(page.getByRole("heading", { name: "Datos personales" })).toBeVisible();
      const summary = page.getByRole("region", { name: "Resultados recientes" });
      await expect(summary).toContainText("Laboratorio: el servicio de laboratorio no está respondiendo; sus resultados están a salvo.");
      await expect(summary).toContainText("Imagenología: el servicio de imagenología no está respondiendo; sus resultados están a salvo.");
      await expect(page.locator(".toast")).toHaveCount(0);
    });

    test("the imaging page says imaging is not answering, nothing is lost, and offers 'Reintentar'", async ({ page }) => {
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/imaging");
      await expect(page.getByRole("heading", { name: "Exámenes de imagenología" })).toBeVisible();
      await expectServiceDown(page, "imagenología");
    });
  });
}

// Issue 43: ClaveÚnica down too (the failing portal's issuer is the mock's /fallas/caida/claveunica, 503 on every call).
// The button still shows; pressed, it brings the patient back to /login saying so, and the Rut and password way works.
const failingClinicOrigin = failingPortalUrl("providers-down").replace("//localhost", "//clinicasur.localhost");
for (const width of [375, 1280]) {
  test.describe(`ClaveÚnica not answering at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("'Ingresar con ClaveÚnica' comes back to /login saying ClaveÚnica is not answering, and the password way signs in", async ({
      page,
    }) => {
      await page.goto(`${failingClinicOrigin}/login`);
      await page.getByRole("link", { name: "Ingresar con ClaveÚnica" }).click();
      await expect(page).toHaveURL(`${failingClinicOrigin}/login?claveunica=no-disponible`);
      await expect(page.getByRole("alert")).toHaveText(
        "ClaveÚnica no está respondiendo en este momento. Vuelva a intentarlo en unos minutos. También puede ingresar con su Rut y contraseña.",
      );
      await expect(page.getByRole("alert")).toBeInViewport();
      await logIn(page, accounts.patient, "patient", failingClinicOrigin);
      await expect(page).toHaveURL(`${failingClinicOrigin}/dashboard/account-settings`);
      await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
    });
  });
}
