import { expect, test } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { e2eBaseUrl } from "./support/ports.ts";
import { sessionEndedPatient } from "./support/rights-requests-fixtures.ts";

// Issue 45 §3: after 'Cerrar las demás sesiones' on another device, the phone's next tap landed on /login under the
// first-login welcome ("debes cambiar tu contraseña"). It says what happened, in usted, and welcomes no one.

test.use({ viewport: { width: 375, height: 667 } });

const patient = { rut: sessionEndedPatient.rut, password: sessionEndedPatient.password };

test("a session ended from another device returns to the login saying so, with no first-login welcome", async ({ page, request }) => {
  await logIn(page, patient);
  await page.goto("/dashboard/scheduling");
  await expect(page.getByRole("heading", { name: "Agendamiento", level: 1 })).toBeVisible();

  // The other device: signs in and ends every other session of the account.
  const login = await request.post(`${e2eBaseUrl}/api/rcr/v1/auth/new-login`, { data: { rut: patient.rut, password: patient.password } });
  const token = ((await login.json()) as { payload: { accessToken: string } }).payload.accessToken;
  const ended = await request.post(`${e2eBaseUrl}/api/rcr/v1/auth/sessions/end-others`, { headers: { authorization: `Bearer ${token}` } });
  expect(ended.ok()).toBe(true);

  await page.getByTestId("sidebar").getByRole("link", { name: "Mis datos" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Su sesión se cerró desde otro dispositivo. Ingrese nuevamente.")).toBeVisible();
  await expect(page.getByText("¡Bienvenido al Portal Paciente!")).toHaveCount(0);
  await expect(page.getByText(/debes cambiar tu contraseña/)).toHaveCount(0);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
