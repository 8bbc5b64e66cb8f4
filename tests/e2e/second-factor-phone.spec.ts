import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { createFreshAccount } from "./support/accounts.ts";
import { nextTotpCode } from "./support/second-factor.ts";

// Issue 45 §9: on a 375 px phone the staff second-factor enrolment was 399 px wide (text, manual key, field and
// 'Activar' off the screen), and the recovery codes broke at their hyphen and could not be copied, printed or downloaded.

test.use({ viewport: { width: 375, height: 667 }, permissions: ["clipboard-read", "clipboard-write"] });

async function fitsTheScreen(page: Page, ...parts: Locator[]) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
  for (const part of parts) {
    const box = (await part.boundingBox())!;
    expect(box.x, String(part)).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, String(part)).toBeLessThanOrEqual(375);
  }
}

test("on a phone a new staff member enrols without sideways scroll, and keeps the recovery codes whole by copying, printing and downloading them", async ({
  page,
}) => {
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  const fresh = await createFreshAccount(1);
  await logIn(page, fresh, "staff");
  await page.getByRole("dialog", { name: "¡Bienvenido!" }).getByRole("button", { name: "Entendido" }).click();
  const form = page.getByRole("form", { name: "Cambio de contraseña" });
  await form.getByLabel("Contraseña actual", { exact: true }).fill(fresh.password);
  await form.getByLabel("Nueva contraseña", { exact: true }).fill("PersonalTelefono2026");
  await form.getByLabel("Repetir contraseña", { exact: true }).fill("PersonalTelefono2026");
  await form.getByRole("button", { name: "Guardar contraseña" }).click();
  await page.getByRole("dialog", { name: "Cambios actualizados" }).getByRole("button").first().click();
  await expect(page).toHaveURL(/\/admin\/second-factor$/);

  await page.getByRole("button", { name: "Comenzar" }).click();
  const secretText = page.getByTestId("second-factor-secret");
  await expect(secretText).toBeVisible();
  const field = page.getByLabel("Código de verificación");
  const activate = page.getByRole("button", { name: "Activar" });
  await fitsTheScreen(page, secretText, page.getByText("Si no puede escanearlo"), field, activate);
  const secret = (await secretText.textContent())!.trim();
  await field.fill(await nextTotpCode(secret));
  await activate.click();

  const region = page.getByRole("region", { name: "Códigos de recuperación" });
  const codes = region.getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const written = (await codes.allTextContents()).map((code) => code.trim());
  await fitsTheScreen(page, ...(await codes.all()));
  for (const code of await region.locator("code").all()) {
    const lines = await code.evaluate((element) => element.getClientRects().length);
    expect(lines, `${await code.textContent()} is on one line`).toBe(1);
  }

  await region.getByRole("button", { name: "Copiar códigos" }).click();
  await expect(region.getByRole("status")).toHaveText("Códigos copiados. Péguelos en un lugar seguro.");
  expect((await page.evaluate(() => navigator.clipboard.readText())).split("\n")).toEqual(written);

  await region.getByRole("button", { name: "Imprimir" }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: "print" });
  // On paper: the codes, not the buttons nor the portal's menu.
  await expect(page.getByRole("button", { name: "Imprimir" })).toBeHidden();
  await expect(page.getByRole("navigation").first()).toBeHidden();
  for (const code of written) await expect(page.getByText(code, { exact: true })).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([page.waitForEvent("download"), region.getByRole("button", { name: "Descargar" }).click()]);
  expect(download.suggestedFilename()).toBe("codigos-recuperacion-portal-pacientes.txt");
  const file = await readFile(await download.path(), "utf8");
  for (const code of written) expect(file).toContain(`${code}\n`);

  await region.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
});
