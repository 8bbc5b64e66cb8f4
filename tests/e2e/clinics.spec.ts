import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Each clinic is its own portal at http://<alias>.localhost:<port>; the scheduling frames load the mocks' agenda.

const clinicUrl = (alias: string) => `http://${alias}.localhost:${e2ePorts.portal}`;
/** The complete patient logs in on that clinic's own portal. */
async function logInAt(page: Page, alias: string) {
  await logIn(page, accounts.patient, "patient", clinicUrl(alias));
  await expect(page).toHaveURL(/\/dashboard\//);
}

const singleFrameClinics = [
  { alias: "clinicasur", key: "hcs-rcr", title: "Hospital Clínico del Sur", centerId: "HCS@4", labPort: 8087 },
  { alias: "clinicaportada", key: "portada-rcr", title: "Clínica Portada", centerId: "PORTADA@1", labPort: 8089 },
];

test.describe("clinic branding on the login page", () => {
  for (const clinic of [
    ...singleFrameClinics,
    { alias: "clinicamaitenes", key: "maitenes", title: "Clínica Los Maitenes", labPort: 8093 },
  ]) {
    test(`${clinic.alias} shows its own logo, title and result links`, async ({ page }) => {
      await page.goto(`${clinicUrl(clinic.alias)}/login`);
      const logo = page.getByRole("img", { name: clinic.title });
      await expect(logo.first()).toHaveAttribute("src", `/logos/${clinic.key}.svg`);
      // The SVG must really load (not just be referenced); it may still be on its way when the <img> appears.
      await expect.poll(() => logo.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(page.getByText(clinic.title, { exact: true })).toBeVisible();
      // Maitenes issues no hospital bills, so its login does not offer to pay them.
      const intro = page.getByText(/Ingrese con su Rut y contraseña/);
      if (clinic.key === "maitenes") await expect(intro).not.toContainText("cuentas hospitalarias");
      else await expect(intro).toContainText("pagar sus cuentas hospitalarias");

      const links = page.getByRole("navigation", { name: "Resultados sin iniciar sesión" });
      const lab = links.getByRole("link", { name: /exámenes de laboratorio/ });
      await expect(lab).toHaveAttribute("href", `http://localhost:${clinic.labPort}/resultados`);
      await expect(lab).toHaveAttribute("target", "_blank");
      await expect(lab).toHaveAttribute("rel", /noopener/);
      await expect(links.getByRole("link", { name: /exámenes de imagenología/ })).toHaveAttribute(
        "href",
        `http://localhost:${e2ePorts.mocksHttp}/imagenologia/login`,
      );
    });
  }
});

test.describe("scheduling screen", () => {
  for (const clinic of singleFrameClinics) {
    test(`${clinic.alias} shows its one scheduling page directly, for center ${clinic.centerId}`, async ({ page }) => {
      await logInAt(page, clinic.alias);
      await page.goto(`${clinicUrl(clinic.alias)}/dashboard/scheduling`);
      await expect(page.getByRole("heading", { name: "Agendamiento" })).toBeVisible();
      await expect(page.getByText("Reservar hora en línea")).toBeVisible();
      await expect(page.getByRole("tab")).toHaveCount(0);
      await expect(page.locator("iframe")).toHaveCount(1);
      const frame = page.frameLocator("iframe.scheduling__frame");
      await expect(frame.getByText(`Centro ${clinic.centerId}`)).toBeVisible();
    });
  }

  test("clinicamaitenes shows its three centers as tabs, and a tab loads its own center's agenda", async ({ page }) => {
    await logInAt(page, "clinicamaitenes");
    await page.goto(`${clinicUrl("clinicamaitenes")}/dashboard/scheduling`);
    const tabs = page.getByRole("tab");
    await expect(tabs).toHaveText(["Melipilla", "Peñaflor", "Talagante"]);
    await expect(tabs.first()).toHaveAttribute("aria-selected", "true");

    const visibleFrame = () => page.frameLocator('[role="tabpanel"]:not([hidden]) iframe');
    await expect(visibleFrame().getByText("Centro MMELI@10")).toBeVisible();

    await page.getByRole("tab", { name: "Talagante" }).click();
    await expect(page.getByRole("tab", { name: "Talagante" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: "Melipilla" })).toHaveAttribute("aria-selected", "false");
    await expect(visibleFrame().getByText("Centro MTALA@11")).toBeVisible();

    await page.getByRole("tab", { name: "Talagante" }).press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Peñaflor" })).toBeFocused();
    await expect(visibleFrame().getByText("Centro MPENA@12")).toBeVisible();
  });

  test("a booking made inside the Maitenes frame is confirmed there", async ({ page }) => {
    await logInAt(page, "clinicamaitenes");
    await page.goto(`${clinicUrl("clinicamaitenes")}/dashboard/scheduling`);
    const frame = page.frameLocator('[role="tabpanel"]:not([hidden]) iframe');
    await frame.getByLabel("RUT").fill(accounts.patient.rut);
    await frame.getByLabel("Correo electrónico").fill("paciente@example.cl");
    await frame
      .getByRole("button", { name: /^Reservar / })
      .first()
      .click();
    await expect(frame.getByRole("heading", { name: "Hora reservada" })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
  });

  test("the Maitenes scheduling screen fits a 375 px wide phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await logInAt(page, "clinicamaitenes");
    await page.goto(`${clinicUrl("clinicamaitenes")}/dashboard/scheduling`);
    await expect(page.getByRole("tab")).toHaveCount(3);
    const frameBox = await page.locator('[role="tabpanel"]:not([hidden]) iframe').boundingBox();
    expect(frameBox).not.toBeNull();
    expect(frameBox!.x + frameBox!.width).toBeLessThanOrEqual(375);
    expect(frameBox!.height).toBeGreaterThan(400);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const lastTab = await page.getByRole("tab", { name: "Talagante" }).boundingBox();
    expect(lastTab!.x + lastTab!.width).toBeLessThanOrEqual(375);
  });
});
