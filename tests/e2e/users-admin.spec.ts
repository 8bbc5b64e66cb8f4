import { expect, test } from "@playwright/test";
import { e2eBaseUrl, e2ePorts } from "./support/ports.ts";
import { firstLink, latestMailTo, type CaughtMail } from "./support/mail.ts";
import { accounts, logIn } from "./shell-helpers.ts";
import {
  createAccountOnScreen,
  emailFor,
  openUserByRut,
  saveChanges,
  scrollsSideways,
  searchUsers,
  uniqueSurname,
  uniqueUserRut,
  userRows,
} from "./users-helpers.ts";

// The admin's staff user screens: create, edit and find accounts. Every account changed here is created here.

/** The mail's link; the text puts it at the end of a sentence, so a closing period is not part of it. */
const portalLink = (mail: CaughtMail) => firstLink(mail).replace(/\.$/, "");

const DUPLICATE_RUT = (rut: string) => `Ya existe una cuenta con el Rut ${rut}`;

test.describe("staff user administration as an admin", () => {
  test("creates a patient who is mailed a temporary password, edits it, finds it, and cannot create its RUT twice", async ({ page }) => {
    test.setTimeout(90_000);
    const rut = uniqueUserRut();
    const email = emailFor(rut, "paciente");
    const surname = uniqueSurname();

    await logIn(page, accounts.admin, "staff");
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
    await expect(page.getByRole("heading", { name: "Usuarios y Pacientes", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(page).toHaveURL(/\/admin\/create-user$/);
    await expect(page.getByRole("heading", { name: "Crear cuenta de usuario", level: 1 })).toBeVisible();

    // 'Crear cuenta' waits for a valid Rut and e-mail; the e-mail error shows once the field was left.
    const create = page.getByRole("button", { name: "Crear cuenta" });
    await expect(create).toBeDisabled();
    await expect(page.getByLabel("Tipo de usuario")).toHaveValue("2");
    const rutField = page.getByLabel("Rut", { exact: true });
    await rutField.fill(rut.replace(/\./g, "").slice(0, -1) + (rut.endsWith("0") ? "1" : "0"));
    await rutField.blur();
    await expect(page.getByText("Rut inválido")).toBeVisible();
    await rutField.fill(rut.replace(/[.-]/g, ""));
    await expect(rutField).toHaveValue(rut);
    await expect(page.getByText("Rut inválido")).toBeHidden();
    const emailField = page.getByLabel("Correo electrónico");
    await emailField.fill("paciente.sin.dominio@");
    await expect(page.getByText("La dirección de correo es incorrecta")).toBeHidden();
    await emailField.blur();
    await expect(page.getByText("La dirección de correo es incorrecta")).toBeVisible();
    await expect(emailField).toHaveCSS("border-top-color", "rgb(198, 40, 40)");
    await expect(create).toBeDisabled();
    await emailField.fill(email);
    await expect(page.getByText("La dirección de correo es incorrecta")).toBeHidden();
    await expect(create).toBeEnabled();
    const since = new Date(Date.now() - 1_000);
    await create.click();
    const created = page.getByRole("dialog", { name: "Cuenta creada" });
    await expect(created).toContainText(email);
    await created.getByRole("button", { name: "Entendido" }).click();
    await expect(page).toHaveURL(/\/admin\/admin-users$/);

    // The welcome mail: the temporary password and the clinic's patient login link.
    const mail = await latestMailTo(email, since);
    expect(mail.text).toContain(`Rut: ${rut}`);
    expect(mail.text).toMatch(/Contraseña temporal: \S{12}\n/);
    expect(portalLink(mail)).toBe(`http://clinicamaitenes.localhost:${e2ePorts.portal}/login`);
    expect(mail.html).toContain(`href="http://clinicamaitenes.localhost:${e2ePorts.portal}/login"`);

    // A new account has no personal data; the admin fills names and phone.
    await openUserByRut(page, rut);
    await expect(page.getByRole("heading", { name: "Modificación de usuario", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Rut", { exact: true })).not.toBeEditable();
    await expect(page.getByLabel("Tipo de usuario")).toHaveValue("2");
    await expect(page.getByLabel("Clínicas")).toHaveCount(0);
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);
    await page.getByLabel("Primer nombre").fill("Rosa");
    await page.getByLabel("Apellido paterno").fill(surname);
    await page.getByLabel("Apellido materno").fill("Núñez");
    const phone = page.getByLabel("Teléfono");
    await phone.fill("98x");
    await phone.blur();
    await expect(page.getByText("Solo caracteres numéricos")).toBeVisible();
    // Issue 33 (GOV.UK): 'Guardar cambios' stays enabled; a save with errors lists them (ux-staff-error-summary.spec.ts).
    await expect(page.getByRole("button", { name: "Guardar cambios" })).toBeEnabled();
    await phone.fill("+56987650000");
    const editEmail = page.getByLabel("Correo electrónico");
    await editEmail.fill("no-es-correo");
    await editEmail.blur();
    await expect(page.getByText("Email inválido")).toBeVisible();
    await editEmail.fill(email);
    await saveChanges(page);

    // The staff password form: the rule, the mismatch, show/hide; the new password then opens a session.
    const save = page.getByRole("button", { name: "Guardar contraseña" });
    const newPassword = page.getByLabel("Nueva contraseña", { exact: true });
    await newPassword.fill("corta");
    await newPassword.blur();
    await expect(
      page.getByText("El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número"),
    ).toBeVisible();
    await newPassword.fill("Reinicio2026x");
    const repeat = page.getByLabel("Repetir contraseña", { exact: true });
    await repeat.fill("Reinicio2026y");
    await repeat.blur();
    await expect(page.getByText("Las contraseñas no coinciden")).toBeVisible();
    await expect(save).toBeDisabled();
    await page.getByRole("button", { name: "Mostrar repetir contraseña" }).click();
    await expect(repeat).toHaveAttribute("type", "text");
    await repeat.fill("Reinicio2026x");
    await save.click();
    const changed = page.getByRole("dialog", { name: "Cambios actualizados" });
    await expect(changed).toBeVisible();
    await changed.getByRole("button", { name: "Entendido" }).click();
    await expect(newPassword).toHaveValue("");
    const login = await fetch(`${e2eBaseUrl}/api/rcr/v1/auth/new-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut, password: "Reinicio2026x" }),
    });
    expect(login.status).toBe(200);

    // 'Volver' to the list; the search finds the patient by RUT, by e-mail and by surname.
    await page.getByRole("button", { name: "Volver" }).click();
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
    for (const text of [rut, email, surname]) {
      const rows = await searchUsers(page, text);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(`Rosa ${surname} Núñez`);
      await expect(rows.first()).toContainText(rut);
      await expect(rows.first()).toContainText(email);
      await expect(rows.first()).toContainText("+56987650000");
      await expect(rows.first()).toContainText("Paciente");
    }

    // The same RUT again (issue 33): the server's message on the Rut field, focused, not a toast; no second account.
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.getByLabel("Rut", { exact: true }).fill(rut);
    await page.getByLabel("Correo electrónico").fill(emailFor(rut, "duplicado"));
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    const rutInput = page.getByLabel("Rut", { exact: true });
    await expect(rutInput).toHaveAccessibleDescription(DUPLICATE_RUT(rut));
    await expect(rutInput).toHaveAttribute("aria-invalid", "true");
    await expect(rutInput).toBeFocused();
    await expect(page.locator(".toast")).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/create-user$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.goto("/admin/admin-users");
    await expect(await searchUsers(page, rut)).toHaveCount(1);
    await expect(userRows(page).first()).toContainText(email);
  });

  test("creates an executive and assigns two clinics, shown as chips and kept after a reload", async ({ page }) => {
    test.setTimeout(60_000);
    const rut = uniqueUserRut();
    const email = emailFor(rut, "ejecutivo");

    await logIn(page, accounts.admin, "staff");
    const since = await createAccountOnScreen(page, { rut, email, role: "1" });
    expect(portalLink(await latestMailTo(email, since))).toBe(`http://clinicamaitenes.localhost:${e2ePorts.portal}/admin-login`);

    await openUserByRut(page, rut);
    await expect(page.getByLabel("Tipo de usuario")).toHaveValue("1");
    const clinics = page.getByLabel("Clínicas", { exact: true });
    const chips = page.getByTestId("clinic-chips");
    await expect(chips).toHaveText("Seleccione clínicas");

    // Three clinics: two chips and '+1' (catalogue order); one removed: two chips.
    await clinics.click();
    const panel = page.getByRole("group", { name: "Clínicas disponibles" });
    await expect(panel).toBeVisible();
    await panel.getByLabel("Clínica Lircay").check();
    await panel.getByLabel("Clínica Portada").check();
    await panel.getByLabel("Clínica Atacama").check();
    await expect(chips).toHaveText("Clínica PortadaClínica Atacama+1");
    await page.setViewportSize({ width: 375, height: 800 });
    await clinics.scrollIntoViewIfNeeded();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "var/test-results/users-edit-clinics-375.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await panel.getByLabel("Clínica Atacama").uncheck();
    await expect(chips).toHaveText("Clínica PortadaClínica Lircay");
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await page.screenshot({ path: "var/test-results/users-edit-executive-1280.png", fullPage: true });

    // The clinics belong to executives only: another role hides them, Ejecutivo shows the same choice again.
    await page.getByLabel("Tipo de usuario").selectOption("2");
    await expect(clinics).toHaveCount(0);
    await page.getByLabel("Tipo de usuario").selectOption("1");
    await expect(chips).toHaveText("Clínica PortadaClínica Lircay");

    await saveChanges(page);
    await page.reload();
    await expect(page.getByLabel("Tipo de usuario")).toHaveValue("1");
    await expect(chips).toHaveText("Clínica PortadaClínica Lircay");
    await clinics.click();
    await expect(panel.getByLabel("Clínica Portada")).toBeChecked();
    await expect(panel.getByLabel("Clínica Lircay")).toBeChecked();
    await expect(panel.getByLabel("Hospital Clínico del Sur")).not.toBeChecked();

    // Saved as a patient, the executive loses the clinics (SPEC §4).
    await page.keyboard.press("Escape");
    await page.getByLabel("Tipo de usuario").selectOption("2");
    await saveChanges(page);
    await page.reload();
    await expect(page.getByLabel("Tipo de usuario")).toHaveValue("2");
    await page.getByLabel("Tipo de usuario").selectOption("1");
    await expect(chips).toHaveText("Seleccione clínicas");
  });

  test("the list filters by user type, pages through the results, says when nothing matches and fits a phone", async ({ page }) => {
    await logIn(page, accounts.admin, "staff");
    await expect(page).toHaveURL(/\/admin\/admin-users$/);
    const rows = userRows(page);
    await expect(rows).toHaveCount(10);
    await expect(page.getByRole("columnheader")).toHaveText(["RUT", "Nombre", "Email", "Teléfono", "Tipo de Usuario", "Modificar"]);
    await page.screenshot({ path: "var/test-results/users-list-1280.png", fullPage: true });

    // Page 2, then the filter applies at once and returns to page 1.
    const firstRut = await rows.first().locator("td").first().textContent();
    await page.getByRole("button", { name: "Página 2" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole("button", { name: "Página 2" })).toHaveAttribute("aria-current", "page");
    await expect(rows.first().locator("td").first()).not.toHaveText(firstRut ?? "");
    await page.getByLabel("Tipo de usuario").selectOption("1");
    await expect(page).not.toHaveURL(/page=/);
    await expect(page).toHaveURL(/tipo=1/);
    await expect(rows.filter({ hasText: "22.222.222-2" })).toHaveCount(1);
    await expect(rows.filter({ hasNotText: "Ejecutivo" })).toHaveCount(0);
    await page.getByLabel("Tipo de usuario").selectOption("0");
    await expect(rows.filter({ hasText: "11.111.111-1" })).toHaveCount(1);
    await page.getByLabel("Tipo de usuario").selectOption("");

    await searchUsers(page, "ningún usuario se llama así");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveText("No se encontraron usuarios");
    await expect(page.getByRole("navigation", { name: "Paginación" })).toHaveCount(0);

    // 375 px: the rows become cards; nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await searchUsers(page, "correo.cl");
    await expect(rows.first()).toBeVisible();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "var/test-results/users-list-375.png" });

    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.getByLabel("Correo electrónico").fill("incorrecto@");
    await page.getByLabel("Correo electrónico").blur();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "var/test-results/users-create-375.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: "var/test-results/users-create-1280.png", fullPage: true });

    // The demo patient's edit screen, only looked at (nothing saved).
    await openUserByRut(page, "12.345.678-5");
    await expect(page.getByLabel("Primer nombre")).toHaveValue("María");
    await page.screenshot({ path: "var/test-results/users-edit-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "var/test-results/users-edit-375.png" });
    await page.getByRole("button", { name: "Guardar contraseña" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: "var/test-results/users-edit-375-password.png" });
  });
});
