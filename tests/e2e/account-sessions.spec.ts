import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { e2eBaseUrl } from "./support/ports.ts";
import { sessionsPatient } from "./support/rights-requests-fixtures.ts";

// Issue 45, low list: in 'Sesiones activas', 'Cerrar sesión' and 'Cerrar las demás sesiones' acted with no question and
// no word of what they did, and 'Último uso' stayed as first read. On a phone: the patient is asked before the others
// end, told what ended, and the list is read again (a device signed in meanwhile shows up within a minute).

test.use({ viewport: { width: 375, height: 667 } });

const patient = { rut: sessionsPatient.rut, password: sessionsPatient.password };
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0";

/** Another device signs in (its browser named by the user agent). */
async function signInElsewhere(request: APIRequestContext, userAgent: string): Promise<void> {
  const login = await request.post(`${e2eBaseUrl}/api/rcr/v1/auth/new-login`, {
    data: { rut: patient.rut, password: patient.password },
    headers: { "user-agent": userAgent },
  });
  expect(login.ok()).toBe(true);
}

const sessionsSection = (page: Page) => page.getByRole("region", { name: "Sesiones activas" });
const items = (page: Page) => sessionsSection(page).getByRole("listitem");

test("ending other sessions asks first, says what ended, and the list follows new sign-ins", async ({ page, request }) => {
  test.slow();
  await logIn(page, patient);
  await signInElsewhere(request, firefox);
  await page.clock.install();
  await page.goto("/dashboard/account-settings");
  await expect(items(page)).toHaveCount(2);
  // This session is in use now: it says so, not a time the server notes only every few minutes.
  await expect(items(page).filter({ hasText: "(esta sesión)" })).toContainText("Último uso: ahora");

  // Signed in elsewhere after the list was read: shown within a minute, with no reload.
  await signInElsewhere(request, edge);
  await page.clock.fastForward(61_000);
  await expect(items(page)).toHaveCount(3);

  await sessionsSection(page).getByRole("button", { name: "Cerrar sesión de Edge en Windows" }).click();
  await expect(sessionsSection(page).getByRole("status")).toHaveText(
    "Se cerró la sesión de Edge en Windows. Ese dispositivo deberá ingresar de nuevo.",
  );
  await expect(items(page)).toHaveCount(2);

  // 'Cerrar las demás sesiones' asks first; 'Cancelar' ends nothing.
  await sessionsSection(page).getByRole("button", { name: "Cerrar las demás sesiones" }).click();
  const dialog = page.getByRole("dialog", { name: "¿Cerrar las demás sesiones?" });
  await expect(dialog).toContainText("Se cerrará 1 sesión en otros dispositivos. Esta sesión sigue abierta.");
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(items(page)).toHaveCount(2);

  await sessionsSection(page).getByRole("button", { name: "Cerrar las demás sesiones" }).click();
  await dialog.getByRole("button", { name: "Sí, cerrar las demás" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(sessionsSection(page).getByRole("status")).toHaveText("Se cerró la sesión del otro dispositivo. Solo queda abierta esta.");
  await expect(items(page)).toHaveCount(1);
  await expect(sessionsSection(page).getByRole("button", { name: "Cerrar las demás sesiones" })).toHaveCount(0);
});
