import { expect, test } from "@playwright/test";
import { createFreshAccount } from "../support/accounts.ts";
import { expectAccessible, seriousViolations } from "./axe.ts";

// axe over the screens without a session (SPEC §2): both logins with their errors, the password recovery steps, and a
// new patient's terms screen and welcome modal (issue 29).

test("the login, recovery and page-not-found screens, with their errors, have no serious or critical axe violation", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/login");
  await expect(page).toHaveTitle("Ingreso de pacientes · Clínica Los Maitenes");
  await expectAccessible(page, "Ingreso de pacientes");
  await page.getByLabel("Rut").fill("12.345.678-5");
  await page.getByLabel("Contraseña", { exact: true }).fill("NoEsLaClave1");
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page.getByRole("alert").first()).toBeVisible();
  await expectAccessible(page, "Ingreso de pacientes, credenciales inválidas");

  await page.goto("/admin-login");
  await page.getByLabel("Rut").fill("12.345.678-0");
  await page.getByLabel("Rut").blur();
  await expectAccessible(page, "Ingreso de Administrativos, Rut inválido");

  await page.goto("/recover-password");
  await page.getByLabel("Rut").fill("12.345.678-0");
  await page.getByLabel("Rut").blur();
  await expectAccessible(page, "Recuperar contraseña, Rut inválido");
  await page.getByLabel("Rut").fill("12.345.678-5");
  await page.getByRole("button", { name: /Enviar/ }).click();
  await expect(page.getByRole("heading", { name: "Revise su correo" })).toBeVisible();
  await expectAccessible(page, "Recuperar contraseña, correo enviado");

  await page.goto("/recover-password?token=no-es-un-token&rut=12345678-5");
  await expect(page.getByRole("heading", { name: "Nueva contraseña" })).toBeVisible();
  await page.getByLabel("Nueva contraseña", { exact: true }).fill("corta");
  await page.getByLabel("Repetir contraseña", { exact: true }).fill("otra");
  await page.getByLabel("Nueva contraseña", { exact: true }).focus();
  await expectAccessible(page, "Nueva contraseña, con errores");

  await page.goto("/no-existe");
  await expect(page.getByText("nopagefound !")).toBeVisible();
  await expect(page).toHaveTitle("Página no encontrada · Clínica Los Maitenes");
  await expectAccessible(page, "Página no encontrada");
});

test("a new patient's terms screen and welcome modal have no serious or critical axe violation", async ({ page }) => {
  test.setTimeout(120_000);
  const account = await createFreshAccount();
  await page.goto("/login");
  await page.getByLabel("Rut").fill(account.rut);
  await page.getByLabel("Contraseña", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page).toHaveURL(/\/accept-tyc$/);
  await expect(page.getByRole("heading", { name: "Términos y condiciones" })).toBeVisible();
  await expect(page).toHaveTitle("Términos y condiciones · Clínica Los Maitenes");
  await expectAccessible(page, "Términos y condiciones");
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByRole("dialog", { name: "¡Bienvenido al Portal Paciente!" })).toBeVisible();
  await expectAccessible(page, "Mi cuenta, bienvenida");
});

test("the check itself fails on the portal's document: a nameless button and a small target are reported, the contents of a frame are not", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Ingresar" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.evaluate(() => {
    const nameless = document.createElement("button");
    nameless.id = "e2e-nameless";
    const tiny = document.createElement("a");
    tiny.id = "e2e-tiny";
    tiny.href = "#";
    tiny.textContent = "x";
    tiny.style.cssText = "display:inline-block;width:8px;height:8px;overflow:hidden;font-size:6px";
    const neighbour = tiny.cloneNode(true) as HTMLAnchorElement;
    neighbour.id = "e2e-tiny-neighbour";
    const frame = document.createElement("iframe");
    frame.title = "Página de la clínica";
    frame.srcdoc = "<!doctype html><html lang='es'><title>x</title><button id='inside'></button></html>";
    document.querySelector("main")!.append(nameless, tiny, neighbour, frame);
  });
  await expect.poll(() => page.frames().length).toBe(2);
  const violations = await seriousViolations(page);
  expect(violations.some((violation) => violation.startsWith("button-name") && violation.includes("#e2e-nameless"))).toBe(true);
  expect(violations.some((violation) => violation.startsWith("target-size") && violation.includes("#e2e-tiny"))).toBe(true);
  expect(violations.join(" ")).not.toContain("#inside");
});
