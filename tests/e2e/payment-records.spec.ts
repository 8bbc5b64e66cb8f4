import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { accounts, logIn } from "./shell-helpers.ts";
import { payRecordBills, recordBills, recordsPatient } from "./support/payment-records-fixtures.ts";
import { e2eMocksUrl, e2ePorts } from "./support/ports.ts";

// Issue 28, payments: 'Comprobante' on a paid bill, 'Historial de pagos' under 'Cuentas hospitalarias', and staff
// 'Anular pago' on the bill's page, at a phone's and a desktop's width. The bills are paid first through the portal's
// API and the Webpay mock's form, as a browser would.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;

const billEntry = (page: Page, accountCode: string) => page.locator(`[data-account-code="${accountCode}"]`);

async function noHorizontalOverflow(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    // The staff path signs in twice (staff with the second factor, then the patient): more than one sign-in's time.
    test.describe.configure({ timeout: 60_000 });
    const bills = recordBills(viewport.width);
    let ids: Record<string, number>;
    test.beforeAll(async () => {
      ids = await payRecordBills(viewport.width);
    });

    test("a paid bill offers 'Comprobante', which downloads the PDF receipt of that payment", async ({ page }) => {
      await logIn(page, recordsPatient, "patient", southPortal);
      await page.goto(`${southPortal}/dashboard/my-bills`);
      const entry = billEntry(page, bills.receipt.accountCode);
      await expect(entry).toContainText("Pagada");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        entry.getByRole("button", { name: `Comprobante de la cuenta ${bills.receipt.accountCode}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`comprobante-cuenta-${bills.receipt.accountCode}.pdf`);
      // Once the receipts are known: none on an unpaid bill, nor on one marked paid by staff without a card payment.
      await expect(billEntry(page, bills.rejected.accountCode).getByRole("button", { name: /Comprobante/ })).toHaveCount(0);
      await expect(billEntry(page, bills.markedPaid.accountCode)).toContainText("Pagada");
      await expect(billEntry(page, bills.markedPaid.accountCode).getByRole("button", { name: /Comprobante/ })).toHaveCount(0);
      const content = await readFile((await download.path())!);
      const text = (await extractText(await getDocumentProxy(new Uint8Array(content)), { mergePages: true })).text;
      expect(text).toContain("Hospital Clínico del Sur");
      expect(text).toContain(bills.receipt.accountCode);
      expect(text).toContain("$ 45.990");
      expect(text).toContain("**** **** **** 6623");
      await noHorizontalOverflow(page);
    });

    test("'Historial de pagos' says what became of each attempt, with its date in Chile's time", async ({ page }) => {
      await logIn(page, recordsPatient, "patient", southPortal);
      await page.goto(`${southPortal}/dashboard/my-bills`);
      const history = page.getByRole("region", { name: "Historial de pagos" });
      const attempt = (accountCode: string) =>
        viewport.width < 1024
          ? history.getByRole("listitem").filter({ hasText: accountCode })
          : history.getByRole("row").filter({ hasText: accountCode });
      await expect(attempt(bills.receipt.accountCode)).toContainText("Aceptado");
      await expect(attempt(bills.receipt.accountCode)).toContainText("$ 45.990");
      await expect(attempt(bills.receipt.accountCode)).toContainText(/\d\d-\d\d-\d{4} \d\d:\d\d/);
      await expect(attempt(bills.rejected.accountCode)).toContainText("Rechazado");
      await expect(attempt(bills.rejected.accountCode)).toContainText("La tarjeta fue rechazada");
      await noHorizontalOverflow(page);
    });

    test("staff 'Anular pago' asks for a reason, then Webpay's confirmation returns the bill to 'Pendiente'", async ({ page }) => {
      await logIn(page, accounts.admin, "staff");
      await page.goto(`/admin/edit-bills?accountCode=${bills.refund.accountCode}&accountId=${ids.refund}`);
      const section = page.getByRole("region", { name: "Pago con tarjeta" });
      await expect(section).toContainText("$ 33.500");
      await expect(section).toContainText("terminada en 6623");
      await section.getByRole("button", { name: "Anular pago" }).click();
      await expect(section.getByText("Indique el motivo de la anulación")).toBeVisible();
      await section.getByLabel("Motivo de la anulación").fill("Cobro duplicado: pagó en caja");
      await section.getByRole("button", { name: "Anular pago" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Continuar" }).click();
      await expect(page.getByRole("dialog")).toContainText("Pago anulado");
      await page.getByRole("dialog").getByRole("button", { name: "Entendido" }).click();
      await expect(section).toContainText(
        /Pago anulado el \d\d-\d\d-\d{4} \d\d:\d\d por .+ \(reversa en Webpay\)\. Motivo: Cobro duplicado/,
      );
      await expect(page.getByLabel("Estado")).toHaveValue("false");
      await expect(section.getByRole("button", { name: "Anular pago" })).toHaveCount(0);
      await noHorizontalOverflow(page);

      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await logIn(page, recordsPatient, "patient", southPortal);
      await page.goto(`${southPortal}/dashboard/my-bills`);
      await expect(billEntry(page, bills.refund.accountCode)).toContainText("Pendiente");
      await expect(page.getByRole("region", { name: "Historial de pagos" })).toContainText("La clínica anuló el pago");
    });

    test("when Webpay fails, staff are told in Spanish that the bill stays paid", async ({ page }) => {
      await logIn(page, accounts.admin, "staff");
      await page.goto(`/admin/edit-bills?accountCode=${bills.refundFails.accountCode}&accountId=${ids.refundFails}`);
      const section = page.getByRole("region", { name: "Pago con tarjeta" });
      await section.getByLabel("Motivo de la anulación").fill("Error de digitación del monto");
      await fetch(`${e2eMocksUrl}/webpay/mock/fault?refundOutage=1`, { method: "PUT" });
      try {
        await section.getByRole("button", { name: "Anular pago" }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Continuar" }).click();
        await expect(section.getByRole("alert")).toContainText("Webpay no respondió, así que la cuenta sigue pagada");
      } finally {
        await fetch(`${e2eMocksUrl}/webpay/mock/fault`, { method: "PUT" });
      }
      await expect(page.getByLabel("Estado")).toHaveValue("true");
      await expect(section.getByRole("button", { name: "Anular pago" })).toBeEnabled();
    });
  });
}
