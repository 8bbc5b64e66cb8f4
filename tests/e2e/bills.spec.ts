import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { demoBillPdf } from "../../server/db/seed-bills.ts";
import { multipartBody, pdfBytes } from "../helpers/multipart.ts";
import { createFreshAccount } from "./support/accounts.ts";
import { e2ePorts } from "./support/ports.ts";
import { wordsBrokenAcrossLines } from "./support/broken-words.ts";
import { accounts, logIn } from "./shell-helpers.ts";

// Hospital bills end to end on the South clinic's portal (the default localhost portal is Maitenes, whose menu has no
// bills): staff load a bill with PDFs, change it, the patient finds it, sorts, pages and downloads; staff delete it.

const sur = `http://clinicasur.localhost:${e2ePorts.portal}`;
const pdfFile = async (name: string) => ({
  name,
  mimeType: "application/pdf",
  buffer: Buffer.from(await demoBillPdf(name, [`Archivo ${name}`])),
});

async function signedIn(browser: Browser, account: { rut: string; password: string }, portal: "patient" | "staff"): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, account, portal, sur);
  return page;
}

async function fillBillForm(page: Page, bill: { rut: string; accountCode: string; date: string; amount: string }) {
  await page.goto(`${sur}/admin/edit-bills`);
  await page.getByLabel("RUT del paciente").fill(bill.rut);
  await page.getByLabel("ID Cuenta").fill(bill.accountCode);
  await page.getByLabel("Fecha").fill(bill.date);
  await page.getByLabel("Monto").fill(bill.amount);
}

async function openBillForEdit(page: Page, accountCode: string) {
  await page.goto(`${sur}/admin/admin-bills`);
  await page.getByPlaceholder("ID Cuenta, RUT, Nombre").fill(accountCode);
  await page.getByPlaceholder("ID Cuenta, RUT, Nombre").press("Enter");
  await page.getByRole("button", { name: `Modificar cuenta ${accountCode}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/edit-bills\\?accountCode=${accountCode}&accountId=\\d+$`));
}

test("staff load a bill with two PDFs and change it; the patient sorts, pages and downloads; staff delete it", async ({ browser }) => {
  test.setTimeout(90_000);
  const accountCode = String(880_000_000 + randomInt(99_999_999));
  const [first, second, third] = await Promise.all([pdfFile("Detalle.pdf"), pdfFile("Epicrisis.pdf"), pdfFile("Boleta final.pdf")]);

  const staff = await signedIn(browser, accounts.admin, "staff");
  await fillBillForm(staff, { rut: accounts.patient.rut, accountCode, date: "2030-01-15", amount: "1234567" });
  const save = staff.getByRole("button", { name: "Guardar cambios" });
  await staff.getByLabel("ID Cuenta").fill(`${accountCode}a`);
  await staff.getByLabel("ID Cuenta").blur();
  await expect(staff.getByText("Solo números")).toBeVisible();
  await expect(save).toBeDisabled();
  await staff.getByLabel("ID Cuenta").fill(accountCode);
  await staff.getByLabel("Seleccionar archivos PDF").setInputFiles([first!, second!]);
  await expect(staff.getByText("Epicrisis.pdf")).toBeVisible();
  await save.click();
  await expect(staff.getByRole("progressbar", { name: "Subida de Detalle.pdf" })).toHaveAttribute("value", "1");
  const created = staff.getByRole("dialog", { name: "Cuenta creada con éxito!" });
  await created.getByRole("button", { name: "Entendido" }).click();
  await expect(staff).toHaveURL(/\/admin\/admin-bills$/);

  // Edit: remove one file, add another, change the amount (the account code is read-only).
  await openBillForEdit(staff, accountCode);
  await expect(staff.getByLabel("ID Cuenta")).toHaveAttribute("readonly", "");
  await expect(staff.getByLabel("Monto")).toHaveValue("1234567");
  await staff.getByRole("button", { name: "Quitar Detalle.pdf" }).click();
  await staff.getByLabel("Seleccionar archivos PDF").setInputFiles([third!]);
  await staff.getByLabel("Monto").fill("2345678");
  await staff.getByRole("button", { name: "Guardar cambios" }).click();
  await staff.getByRole("dialog", { name: "Archivos subidos con éxito!" }).getByRole("button", { name: "Entendido" }).click();
  await expect(staff).toHaveURL(/\/admin\/admin-bills/);

  // The patient sees it first (newest), sorts by amount, pages, and downloads the new PDF.
  const patient = await signedIn(browser, accounts.patient, "patient");
  await patient.goto(`${sur}/dashboard/my-bills`);
  const table = patient.getByRole("table", { name: "Cuentas hospitalarias" });
  const ours = table.locator(`tr[data-account-code="${accountCode}"]`);
  await expect(ours).toContainText("15-01-2030");
  await expect(ours).toContainText("$ 2.345.678");
  await expect(ours).toContainText("Pendiente");
  await expect(table.locator("tbody tr").first()).toHaveAttribute("data-account-code", accountCode);

  await table.getByRole("button", { name: /Monto/ }).click();
  await expect(table.getByRole("columnheader", { name: /Monto/ })).toHaveAttribute("aria-sort", "ascending");
  const amounts = async () =>
    (await table.locator("tbody tr td:nth-child(2)").allInnerTexts()).map((text) => Number(text.replace(/\D/g, "")));
  await expect
    .poll(async () => {
      const list = await amounts();
      return list.length === 10 && list.every((value, i) => i === 0 || list[i - 1]! <= value);
    })
    .toBe(true);
  const firstPage = await amounts();
  await patient.getByRole("button", { name: "Página 2" }).click();
  await expect.poll(async () => (await amounts())[0]).toBeGreaterThanOrEqual(firstPage[9]!);
  await expect(table.locator(`tr[data-account-code="${accountCode}"]`)).toBeVisible(); // the largest amount: last page

  await table.getByRole("button", { name: new RegExp(`^Adjuntos \\(\\d+\\) de la cuenta ${accountCode}$`) }).click();
  const attachments = patient.getByRole("dialog", { name: "Documentos adjuntos" });
  await expect(attachments.getByRole("cell", { name: "Epicrisis.pdf", exact: true })).toBeVisible();
  await expect(attachments.getByRole("cell", { name: "Boleta final.pdf", exact: true })).toBeVisible();
  await expect(attachments.getByRole("cell", { name: "Detalle.pdf", exact: true })).toHaveCount(0);
  const download = patient.waitForEvent("download");
  await attachments.getByRole("button", { name: "Descargar Boleta final.pdf" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Boleta final.pdf");
  expect((await readFile((await file.path())!)).equals(third!.buffer)).toBe(true);
  await attachments.getByRole("button", { name: "Volver" }).click();

  // Staff delete it after confirming.
  await openBillForEdit(staff, accountCode);
  await staff.getByRole("button", { name: "Eliminar" }).click();
  const confirm = staff.getByRole("dialog", { name: "Eliminar cuenta" });
  await confirm.getByRole("button", { name: "Volver" }).click();
  await expect(staff).toHaveURL(/\/admin\/edit-bills/);
  await staff.getByRole("button", { name: "Eliminar" }).click();
  await staff.getByRole("dialog", { name: "Eliminar cuenta" }).getByRole("button", { name: "Eliminar" }).click();
  await expect(staff).toHaveURL(/\/admin\/admin-bills$/);
  await staff.getByPlaceholder("ID Cuenta, RUT, Nombre").fill(accountCode);
  await staff.getByPlaceholder("ID Cuenta, RUT, Nombre").press("Enter");
  await expect(staff.getByText("No hay cuentas hospitalarias")).toBeVisible();
  await patient.reload();
  await expect(patient.getByRole("table", { name: "Cuentas hospitalarias" }).locator(`tr[data-account-code="${accountCode}"]`)).toHaveCount(
    0,
  );
});

test("a document refused by the server with 413 after the bill is created shows 'Cuenta creada' and leads to the list", async ({
  browser,
}) => {
  const owner = await createFreshAccount(2);
  const accountCode = String(870_000_000 + randomInt(99_999_999));
  const staff = await signedIn(browser, accounts.admin, "staff");
  // The form refuses files over 2 MB, so the oversized body is put on the wire by rewriting the upload request: the
  // real server must cut it off while streaming and answer 413.
  await staff.route("**/api/rcr/v1/files/upload?*", async (route) => {
    const { payload, headers } = multipartBody({}, [{ name: "grande.pdf", content: pdfBytes(2 * 1024 * 1024 + 1) }]);
    await route.continue({ postData: payload, headers: { ...route.request().headers(), ...headers } });
  });
  await fillBillForm(staff, { rut: owner.rut, accountCode, date: "2026-03-10", amount: "50000" });
  await staff.getByLabel("Seleccionar archivos PDF").setInputFiles([await pdfFile("Documento.pdf")]);
  await staff.getByRole("button", { name: "Guardar cambios" }).click();
  const modal = staff.getByRole("dialog", { name: "Cuenta creada" });
  await expect(modal).toContainText("un documento tuvo un error de carga");
  await modal.getByRole("button", { name: "Entendido" }).click();
  await expect(staff).toHaveURL(/\/admin\/admin-bills$/);
  await staff.getByPlaceholder("ID Cuenta, RUT, Nombre").fill(accountCode);
  await staff.getByPlaceholder("ID Cuenta, RUT, Nombre").press("Enter");
  const row = staff.locator(`tr[data-account-code="${accountCode}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByRole("button", { name: `Adjuntos de la cuenta ${accountCode}` })).toHaveText("Adjuntos");
});

test("the form refuses a non-PDF and a PDF over 2 MB before sending anything", async ({ browser }) => {
  const staff = await signedIn(browser, accounts.admin, "staff");
  await staff.goto(`${sur}/admin/edit-bills`);
  await staff.getByLabel("Seleccionar archivos PDF").setInputFiles([{ name: "foto.png", mimeType: "image/png", buffer: Buffer.alloc(10) }]);
  await expect(staff.getByText("Solo se permiten archivos PDF")).toBeVisible();
  await staff
    .getByLabel("Seleccionar archivos PDF")
    .setInputFiles([{ name: "enorme.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfBytes(2 * 1024 * 1024 + 1)) }]);
  await expect(staff.getByText("El archivo enorme.pdf pesa más de 2MB")).toBeVisible();
});

test("on a 375 px phone no date, amount or status of a bill card is broken inside a word", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await logIn(page, accounts.patient, "patient", sur);
  await page.goto(`${sur}/dashboard/my-bills`);
  await expect(page.locator(".bill-card").first()).toBeVisible();
  expect(await page.locator(".bill-card dd").count()).toBeGreaterThan(0);
  expect(await wordsBrokenAcrossLines(page.locator(".bill-card dd"))).toEqual([]);
  await context.close();
});
