import { expect, test, type Page } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";

// 'Mi cuenta' → 'Avisos' (issue 31): the patient turns each kind of e-mail notice on or off.

const noticeSwitch = (page: Page, name: string) => page.getByRole("region", { name: "Avisos" }).getByRole("switch", { name });

test("a patient turns result notices off and on again, and the choice is kept", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/account-settings");
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeChecked();
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
  await expect(noticeSwitch(page, "Recordatorio de sus horas")).toBeChecked();

  await noticeSwitch(page, "Nuevos resultados").click();
  await expect(noticeSwitch(page, "Nuevos resultados")).not.toBeChecked();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeEnabled();
  await page.reload();
  await expect(noticeSwitch(page, "Nuevos resultados")).not.toBeChecked();

  await noticeSwitch(page, "Nuevos resultados").click();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeChecked();
  await expect(noticeSwitch(page, "Nuevos resultados")).toBeEnabled();
});

test("when the choice cannot be saved the patient is told and the switch shows what is stored", async ({ page }) => {
  await logIn(page, accounts.patient);
  await page.goto("/dashboard/account-settings");
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
  await page.route("**/trpc/notices.update**", (route) => route.abort());
  await noticeSwitch(page, "Nuevas cuentas hospitalarias").click();
  await expect(page.getByText("No se pudo guardar su preferencia de avisos. Intente nuevamente.")).toBeVisible();
  await expect(noticeSwitch(page, "Nuevas cuentas hospitalarias")).toBeChecked();
});
