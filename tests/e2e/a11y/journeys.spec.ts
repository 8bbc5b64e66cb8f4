import { expect, test, type Page } from "@playwright/test";
import { accounts } from "../shell-helpers.ts";
import { paymentBills, paymentsPatient } from "../support/payments-fixtures.ts";
import { e2ePorts } from "../support/ports.ts";
import { nextTotpCode, staffSecretOf } from "../support/second-factor.ts";
import { emailFor, uniqueUserRut } from "../users-helpers.ts";
import { announced, recordAnnouncements } from "./announcements.ts";
import { expectAccessible } from "./axe.ts";
import { expectFocusTrapped, expectFocusVisible, tabTo } from "./keyboard.ts";

// Keyboard-only journeys (issue 29): no click on the portal, every focus stop visible, modals that take the focus,
// keep it, close on Escape and give it back, the skip link, per-route titles, and errors that are announced and tied
// to their field. On the South clinic's portal, which has every patient menu entry.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
const clinic = "Hospital Clínico del Sur";
test.use({ baseURL: southPortal });

async function logInByKeyboard(page: Page, account: { rut: string; password: string }, loginPath: "/login" | "/admin-login") {
  await page.goto(loginPath);
  await expect(page.getByRole("button", { name: "Ingresar" })).toBeVisible();
  await tabTo(page, page.getByLabel("Rut"));
  await page.keyboard.type(account.rut);
  await tabTo(page, page.getByLabel("Contraseña", { exact: true }));
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
}

test("a patient logs in, skips to the content, looks at a bill's attachments and pays it with the keyboard alone", async ({ page }) => {
  test.setTimeout(120_000);
  const bill = paymentBills.keyboardJourney;
  await recordAnnouncements(page.context());
  await logInByKeyboard(page, paymentsPatient, "/login");
  await expect(page).toHaveURL(/\/dashboard\/account-settings$/);
  await expect(page).toHaveTitle(`Mi cuenta · ${clinic}`);

  // The first Tab stop is the skip link; it takes the focus to the page's main content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Saltar al contenido principal" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectFocusVisible(page);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();

  await page.keyboard.press("Shift+Tab");
  await tabTo(page, page.getByRole("navigation").getByRole("link", { name: "Cuentas hospitalarias" }), { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/my-bills$/);
  await expect(page).toHaveTitle(`Cuentas hospitalarias · ${clinic}`);

  const row = page.locator(`tr[data-account-code="${bill.accountCode}"]`);
  await expect(row).toContainText("Pendiente");
  const attachments = row.getByRole("button", { name: /^Adjuntos/ });
  await tabTo(page, attachments, { max: 80 });
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Documentos adjuntos" });
  await expect(dialog).toBeVisible();
  await expectFocusTrapped(page, dialog, 3);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(attachments).toBeFocused();

  await tabTo(page, row.getByRole("button", { name: /Pagar/ }));
  const [form] = await Promise.all([page.context().waitForEvent("page"), page.keyboard.press("Enter")]);
  await form.waitForURL(/\/webpay\/webpayserver\/initTransaction/);
  // The Webpay form is the mock's page (the provider's, not the portal's): driven by keyboard, without ring checks.
  await tabTo(form, form.getByLabel("Número de tarjeta"), { checkRing: false });
  await form.keyboard.type("4051 8856 0044 6623");
  await form.keyboard.press("Enter");
  await tabTo(form, form.getByLabel("Fecha de expiración (MM/AA)"), { checkRing: false });
  await form.keyboard.type("12/30");
  await tabTo(form, form.getByLabel("CVV"), { checkRing: false });
  await form.keyboard.type("123");
  await form.keyboard.press("Enter");

  await form.waitForURL(`${southPortal}/dashboard/my-bills`);
  const result = form.getByRole("dialog", { name: /Pago aceptado/ });
  await expect(result).toContainText("$ 15.500 CLP");
  await expect(result.getByRole("button", { name: "Entendido" })).toBeFocused();
  // It opened on arrival, with nothing focused: it says its result in a live region of its own (Orca said only
  // 'Entendido push button' before).
  expect(await announced(form)).toContain("Pago aceptado. El pago de su cuenta hospitalaria fue recibido exitosamente.");
  await expectFocusVisible(form);
  await expectFocusTrapped(form, result, 2);
  await expectAccessible(form, "Cuentas hospitalarias, resultado del pago");
  await form.keyboard.press("Escape");
  await expect(result).toHaveCount(0);
  await expect(form.locator(`tr[data-account-code="${bill.accountCode}"]`)).toContainText("Pagada");
});

test("staff log in with the second factor and create a user with the keyboard alone; the e-mail error is announced and tied to its field", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logInByKeyboard(page, accounts.admin, "/admin-login");
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
  const code = page.getByLabel("Código de verificación");
  await expect(code).toBeFocused();
  // Each code is taken once; a previous step's code that arrived after its step ended is refused: the next is typed.
  for (let attempt = 0; attempt < 4 && /admin-login$/.test(new URL(page.url()).pathname); attempt++) {
    await code.focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(await nextTotpCode(staffSecretOf(accounts.admin.rut)!));
    await page.keyboard.press("Enter");
    await Promise.race([
      page.waitForURL(/\/admin\/admin-users$/, { timeout: 10_000 }),
      page.getByRole("alert").waitFor({ timeout: 10_000 }),
    ]).catch(() => undefined);
  }
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
  await expect(page).toHaveTitle(`Usuarios y Pacientes · ${clinic}`);

  await tabTo(page, page.getByRole("button", { name: "Crear cuenta" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/create-user$/);
  await expect(page).toHaveTitle(`Crear cuenta de usuario · ${clinic}`);

  const rut = uniqueUserRut();
  await tabTo(page, page.getByLabel("Rut", { exact: true }));
  await page.keyboard.type(rut);
  const email = page.getByLabel("Correo electrónico");
  await tabTo(page, email);
  await page.keyboard.type("sin-arroba");
  await page.keyboard.press("Tab");
  const error = page.getByText("La dirección de correo es incorrecta");
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute("role", "alert");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription(/La dirección de correo es incorrecta/);

  await tabTo(page, email, { backwards: true });
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(emailFor(rut, "teclado"));
  await tabTo(page, page.getByRole("button", { name: "Crear cuenta" }));
  await page.keyboard.press("Enter");
  const created = page.getByRole("dialog", { name: "Cuenta creada" });
  await expect(created).toBeVisible();
  await expect(created.getByRole("button", { name: "Entendido" })).toBeFocused();
  await expectFocusTrapped(page, created, 2);
  await expectAccessible(page, "Crear cuenta de usuario, cuenta creada");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/admin-users$/);
});

test("a patient opens a laboratory order and e-mails its report with the keyboard alone; a failed send is announced", async ({ page }) => {
  test.setTimeout(90_000);
  await logInByKeyboard(page, accounts.patient, "/login");
  await expect(page).toHaveURL(/\/dashboard\//);
  await page.goto("/dashboard/laboratory");
  await expect(page).toHaveTitle(`Exámenes de laboratorio · ${clinic}`);

  const toggle = page.getByRole("button", { name: /Ver prestaciones de la orden 1234567801/ }).first();
  await tabTo(page, toggle);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: /Ocultar prestaciones de la orden 1234567801/ }).first()).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(page.getByLabel("Prestaciones de la orden 1234567801", { exact: true }).first()).toBeVisible();

  // The mail service fails once: the toast and the lasting message beside the order (issue 33) both say so to a screen
  // reader (role=alert).
  const send = page.getByRole("button", { name: "Enviar por email el informe de la orden 1234567801" }).first();
  await page.route("**/trpc/reports.mail**", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }), {
    times: 1,
  });
  await tabTo(page, send);
  await page.keyboard.press("Enter");
  await expect(page.locator(".toast").getByText("Hubo un error al procesar la solicitud, por favor intente más tarde")).toBeVisible();
  await expect(page.locator(".action-failure [role=alert]")).toHaveText("No se pudo enviar a su correo el informe de la orden 1234567801.");

  await send.focus();
  await page.keyboard.press("Enter");
  const sent = page.getByRole("dialog", { name: "Email enviado" });
  await expect(sent).toBeVisible();
  await expectFocusTrapped(page, sent, 2);
  await page.keyboard.press("Escape");
  await expect(sent).toHaveCount(0);
  await expect(send).toBeFocused();
  await expectFocusVisible(page);
});
