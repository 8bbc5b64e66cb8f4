import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y/axe.ts";
import { accounts, logIn } from "./shell-helpers.ts";
import { refreshPatient } from "./support/appointments-fixtures.ts";
import { failingPortalUrl, startFailingPortal } from "./support/failing-portal.ts";
import { e2eMocksUrl } from "./support/ports.ts";

// 'Mis citas' (issue 44) in an es-CL / America/Santiago browser: the demo patient's seeded appointments from the
// scheduling mock's FHIR API, the calendar file, a cancellation after its confirmation; and the agenda down.

/** A day counted from today in Chile, as the page writes it (dd-mm-yyyy). */
function chileDayIn(days: number): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(new Date(Date.now() + days * 86_400_000))
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.day}-${parts.month}-${parts.year}`;
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

const viewports = [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
];

test.describe("'Mis citas' with the agenda answering", () => {
  test.describe.configure({ mode: "serial" });
  for (const viewport of viewports) {
    test(`at ${viewport.width} px the demo patient sees the seeded upcoming appointment first, adds it to the calendar and cancels one after a confirmation naming it`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/my-appointments");
      await expect(page.getByRole("heading", { name: "Mis citas", level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(/^Mis citas · /);

      const upcoming = page.getByRole("list", { name: "Próximas horas" });
      const past = page.getByRole("list", { name: "Horas pasadas" });
      const first = upcoming.getByRole("listitem").first();
      await expect(first).toContainText(new RegExp(`${chileDayIn(3)} \\d{2}:\\d{2}`));
      await expect(first.locator("dd").nth(0)).not.toBeEmpty();
      await expect(first).toContainText("Especialidad");
      await expect(first).toContainText("Lugar");
      await expect(upcoming.getByRole("listitem")).toHaveCount(3);
      await expect(upcoming.getByRole("listitem").nth(1)).toContainText(chileDayIn(5));
      await expect(upcoming.getByRole("listitem").nth(1)).toContainText("Confirmada");
      await expect(past).toContainText("Realizada");
      await expect(past).toContainText("Anulada");
      await expect(past.getByRole("button")).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      // 'Agregar a mi calendario' (on the first appointment not cancelled by an earlier test): an iCalendar file in
      // Chile's time zone with the place.
      const addToCalendar = upcoming.getByRole("button", { name: "Agregar a mi calendario" }).first();
      const download = page.waitForEvent("download");
      await addToCalendar.click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^cita-[\w-]+\.ics$/);
      const calendar = await readFile(await file.path(), "utf8");
      expect(calendar).toContain("BEGIN:VCALENDAR");
      expect(calendar).toContain("DTSTART;TZID=America/Santiago:");
      expect(calendar).toContain("BEGIN:VTIMEZONE");
      expect(calendar).toMatch(/LOCATION:.+/);

      // 'Anular hora' on the first upcoming appointment still open: the confirmation names it; then it reads 'Anulada'.
      const open = upcoming
        .getByRole("listitem")
        .filter({ has: page.getByRole("button", { name: "Anular hora" }) })
        .first();
      const id = await open.getAttribute("data-appointment-id");
      const when = (await open.locator(".appointment-card__when").textContent())?.trim() ?? "";
      const [day, time] = when.split(" ");
      await open.getByRole("button", { name: "Anular hora" }).click();
      const dialog = page.getByRole("dialog", { name: "¿Anular esta hora?" });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(`Va a anular su hora el ${day} a las ${time}`);
      await dialog.getByRole("button", { name: "Sí, anular la hora" }).click();
      await expect(dialog).toHaveCount(0);
      const cancelled = page.locator(`[data-appointment-id="${id}"]`);
      await expect(cancelled.locator(".appointment-status")).toHaveText("Anulada");
      await expect(cancelled.getByRole("button", { name: "Anular hora" })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
    });
  }

  test("'Volver' in the confirmation leaves the appointment as it was; the page and the dialog have no serious axe violation", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await logIn(page, accounts.patient);
    await page.goto("/dashboard/my-appointments");
    const open = page
      .getByRole("list", { name: "Próximas horas" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("button", { name: "Anular hora" }) })
      .first();
    const status = await open.locator(".appointment-status").textContent();
    await expectAccessible(page, "Mis citas");
    await open.getByRole("button", { name: "Anular hora" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectAccessible(page, "Mis citas, confirmación de anulación");
    await page.getByRole("dialog").getByRole("button", { name: "Volver" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(open.locator(".appointment-status")).toHaveText(status ?? "");
  });
});

test("at 375 px a booking made outside the portal (the clinic's page in another tab) shows after 'Actualizar', which says when", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await logIn(page, refreshPatient);
  await page.goto("/dashboard/my-appointments");
  await expect(page.getByText("No tiene horas reservadas ni atenciones en los últimos 12 meses.", { exact: false })).toBeVisible();

  // The clinic's own booking page, not the portal's frame: the portal is not told.
  const agendaPage = await (await fetch(`${e2eMocksUrl}/agenda?externalCenterId=${encodeURIComponent("HCS@4")}`)).text();
  const slotId = [...agendaPage.matchAll(/name="slotId" value="([^"]+)"/g)].at(-2)![1]!;
  const booked = await fetch(`${e2eMocksUrl}/agenda/reservar`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ externalCenterId: "HCS@4", slotId, rut: refreshPatient.rut, email: refreshPatient.email }),
  });
  expect(booked.status).toBe(200);

  await page.getByRole("button", { name: "Actualizar" }).click();
  const [day, time] = [slotId.slice(0, 10).split("-").reverse().join("-"), slotId.slice(11)];
  await expect(
    page.getByRole("list", { name: "Próximas horas" }).getByRole("listitem", { name: `Hora del ${day} a las ${time}` }),
  ).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Lista actualizada a las \d{2}:\d{2}\.$/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test.describe("'Mis citas' with the agenda down", () => {
  let stop: () => Promise<void>;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    stop = await startFailingPortal("appointments");
  });
  test.afterAll(async () => stop());
  test.use({ baseURL: failingPortalUrl("appointments") });

  for (const viewport of viewports) {
    test(`at ${viewport.width} px the page says the agenda is not answering, nothing is lost, and offers 'Reintentar', never "no appointments"`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/my-appointments");
      await expect(page.getByRole("heading", { name: "Mis citas", level: 1 })).toBeVisible();
      const alert = page.locator(".load-failure");
      await expect(alert).toContainText("El servicio de agenda no está respondiendo");
      await expect(alert).toContainText("Sus datos están a salvo: no se ha perdido nada.");
      await expect(page.getByText(/No tiene horas/)).toHaveCount(0);
      let calls = 0;
      page.on("request", (request) => {
        if (request.url().includes("/trpc/")) calls++;
      });
      await alert.getByRole("button", { name: "Reintentar" }).click();
      await expect.poll(() => calls).toBeGreaterThan(0);
      await expect(page.locator(".load-failure")).toHaveCount(1);
      await expectNoSidewaysScroll(page);
    });

    test(`at ${viewport.width} px 'Mi cuenta' still opens and its 'Próxima hora' card says the agenda is not answering`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await logIn(page, accounts.patient);
      await page.goto("/dashboard/account-settings");
      await expect(page.getByRole("heading", { name: "Mi cuenta", level: 1 })).toBeVisible();
      const card = page.getByRole("region", { name: "Próxima hora" });
      await expect(card).toContainText("El servicio de agenda no está respondiendo; sus horas están a salvo.");
      await expect(card).not.toContainText("No tiene horas próximas");
      await expect(card.getByRole("link", { name: "Ver mis citas" })).toBeVisible();
      // The rest of the page does not depend on the agenda.
      await expect(page.getByRole("region", { name: "Avisos" })).toBeVisible();
      await expectNoSidewaysScroll(page);
    });
  }
});
