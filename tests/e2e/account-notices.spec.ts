import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// 'Mi cuenta' → 'Avisos' (issue 31): the patient turns each kind of e-mail notice on or off.

const notices = (page: Page) => page.getByRole("region", { name: "Avisos" });
const noticeSwitch = (page: Page, name: string) => notices(page).getByRole("switch", { name });
const savedBeside = (page: Page, name: string) =>
  notices(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("switch", { name }) })
    .getByRole("status");
const anySaved = (page: Page) => notices(page).getByText(/^Guardado\./);

// Issue 45, low list: on a phone a switch changed with no word that the choice was kept. Each saved switch says what it
// now means, beside it.
test.use({ viewport: { width: 375, height: 667 } });

test("a patient turns result notices off and on again, and the choice is kept", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/account-settings");
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeChecked();
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
  await expect(noticeSwitch(page, "Recordatorio de sus horas")).toBeChecked();

  await expect(anySaved(page)).toHaveCount(0);
  await noticeSwitch(page, "Nuevos resultados").click();
  await expect(noticeSwitch(page, "Nuevos resultados")).not.toBeChecked();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeEnabled();
  await expect(savedBeside(page, "Nuevos resultados")).toHaveText("Guardado. Ya no recibirá avisos de nuevos resultados por correo.");
  await page.reload();
  await expect(noticeSwitch(page, "Nuevos resultados")).not.toBeChecked();

  await noticeSwitch(page, "Nuevos resultados").click();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeChecked();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeEnabled();
  await expect(savedBeside(page, "Nuevos resultados")).toHaveText("Guardado. Recibirá avisos de nuevos resultados por correo.");
});

test("when the choice cannot be saved the patient is told and the switch shows what is stored", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/account-settings");
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
  await page.route("**/trpc/notices.update**", (route) => route.abort());
  await noticeSwitch(page, "Nuevas cuentas hospitalarias").click();
  await expect(page.getByText("No se pudo guardar su preferencia de avisos. Intente nuevamente.")).toBeVisible();
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
  await expect(anySaved(page)).toHaveCount(0);
});
