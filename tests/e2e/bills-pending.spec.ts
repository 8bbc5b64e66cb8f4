import { expect, test } from "@playwright/test";
import { accounts, holdAppCodeUntil, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 33, point 3: bills a patient recognises. Each row shows the account number the clinic quotes, the page says
// what is still owed, and 'Mi cuenta' (still the landing after login) starts with what is pending and a link to pay.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
const totalToPay = /Total por pagar: \$ \d{1,3}(\.\d{3})*/;

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("'Mi cuenta' starts with what is pending and links to the bills, which show 'N° de cuenta' and 'Total por pagar'", async ({
      page,
    }) => {
      await logIn(page, accounts.patient, "patient", southPortal);
      await expect(page).toHaveURL(`${southPortal}/dashboard/account-settings`);
      const summary = page.getByRole("region", { name: "Cuentas por pagar" });
      await expect(summary).toContainText(/Tiene \d+ cuentas? hospitalarias? pendientes?\./);
      await expect(summary).toContainText(totalToPay);
      const summaryTotal = (await summary.locator("strong").innerText()).trim();
      await summary.getByRole("link", { name: "Ver y pagar cuentas" }).click();

      await expect(page).toHaveURL(`${southPortal}/dashboard/my-bills`);
      await expect(page.getByText(totalToPay)).toHaveText(summaryTotal);
      const firstBill = page.locator("[data-account-code]").first();
      const code = await firstBill.getAttribute("data-account-code");
      await expect(firstBill).toContainText(`N° de cuenta${viewport.width < 1024 ? "" : " "}${code}`);
      await expect(firstBill).toContainText(/\d\d-\d\d-\d{4}/);
    });
  });
}

test("on a first load of 'Mi cuenta' the pending bills are asked for while the app's code is still coming, and only once", async ({
  page,
}) => {
  await logIn(page, accounts.patient, "patient", southPortal);
  // Hold the signed-in app's module back until the summary's question went out (it is the page's largest text: it
  // must not wait for the app's code, the page's code and its first render).
  let asked!: () => void;
  const pendingAsked = new Promise<void>((resolve) => (asked = resolve));
  let questions = 0;
  page.on("request", (request) => {
    if (!/\/trpc\/([\w.,]+,)?bills\.pending\b/.test(request.url())) return;
    questions++;
    asked();
  });
  const held = await holdAppCodeUntil(page, pendingAsked);
  await page.goto(`${southPortal}/dashboard/account-settings`);
  const summary = page.getByRole("region", { name: "Cuentas por pagar" });
  await expect(summary).toContainText(totalToPay);
  expect(held.eventFirst).toBe(true);
  // The page took that answer: one question for the whole load.
  await expect(page.getByRole("button", { name: /Datos personales/ })).toBeVisible();
  expect(questions).toBe(1);
});

test("the clinic without hospital bills in its menu shows no pending summary on 'Mi cuenta'", async ({ page }) => {
  await logIn(page, accounts.patient);
  await expect(page.getByRole("heading", { name: "Mi cuenta" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Datos personales" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Cuentas por pagar" })).toHaveCount(0);
});

test("bills that cannot be loaded are told in the page with 'Reintentar', not shown as 'no bills'", async ({ page }) => {
  await logIn(page, accounts.patient, "patient", southPortal);
  let failing = true;
  await page.route(/\/trpc\/[^?]*bills\.mine/, (route) => (failing ? route.abort() : route.continue()));
  await page.goto(`${southPortal}/dashboard/my-bills`);
  const alert = page.locator(".load-failure");
  await expect(alert).toContainText("El servicio de cuentas hospitalarias no está respondiendo");
  // SPEC §8's toast of the bill list, 'error de sistema vuelva a intentarlo', in the same words in the page.
  await expect(alert).toContainText("Error de sistema vuelva a intentarlo. Sus datos están a salvo: no se ha perdido nada.");
  await expect(page.getByText("No hay cuentas hospitalarias")).toHaveCount(0);
  failing = false;
  await alert.getByRole("button", { name: "Reintentar" }).click();
  await expect(page.locator(".load-failure")).toHaveCount(0);
  await expect(page.locator("[data-account-code]").first()).toBeVisible();
});
