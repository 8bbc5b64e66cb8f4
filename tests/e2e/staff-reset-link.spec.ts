import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { createFreshAccount } from "./support/accounts.ts";
import { latestMailTo } from "./support/mail.ts";
import { openUserByRut } from "./users-helpers.ts";

// Issue 33, point 5: beside the spec's password form, 'Modificación de usuario' sends the recovery e-mail, so staff
// need not invent a password.

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px, 'Enviar enlace para restablecer contraseña' e-mails the user the recovery link`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const account = await createFreshAccount(2);
    await logIn(page, accounts.admin, "staff");
    await openUserByRut(page, account.rut);
    const since = new Date(Date.now() - 1_000);
    await page.getByRole("button", { name: "Enviar enlace para restablecer contraseña" }).click();
    const sent = page.getByRole("dialog", { name: "Enlace enviado" });
    await expect(sent).toContainText(`Se envió un enlace para restablecer la contraseña al correo ${account.email}.`);
    await sent.getByRole("button", { name: "Entendido" }).click();
    // Waits for the recovery mail itself: the account's welcome, queued just before, may arrive after `since` too.
    const mail = await latestMailTo(account.email, since, /\/recover-password\?token=/);
    expect(mail.text).toMatch(/\/recover-password\?token=/);
  });
}
