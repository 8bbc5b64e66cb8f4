import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { journeyPatients } from "./support/appointments-fixtures.ts";
import { e2ePorts } from "./support/ports.ts";

// 'Mis citas' end to end (issue 44) in an es-CL / America/Santiago browser, on Clínica Sur's own portal (one frame,
// center HCS@4): the next appointment on 'Mi cuenta' (none yet), a booking inside the 'Agendamiento' frame, the link
// under it to 'Mis citas', the appointment there and on 'Mi cuenta', its .ics in Chile's time zone, the cancellation,
// and the slot free again in the booking page. Each width has its own patient (tests/e2e/support/appointments-fixtures.ts).

const origin = `http://clinicasur.localhost:${e2ePorts.portal}`;
const nextAppointment = (page: Page) => page.getByRole("region", { name: "Próxima hora" });
const frame = (page: Page) => page.frameLocator("iframe.scheduling__frame");

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const width of [375, 1280] as const) {
  test(`at ${width} px a patient books in the frame, finds it in 'Mis citas' and on 'Mi cuenta', adds it to the calendar, cancels it, and the slot is free again`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const patient = journeyPatients[width];
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await logIn(page, patient, "patient", origin);

    // 'Mi cuenta' before booking: a quiet line, and the way to 'Mis citas'.
    await page.goto(`${origin}/dashboard/account-settings`);
    await expect(nextAppointment(page)).toContainText("No tiene horas próximas.");
    await expect(nextAppointment(page).getByRole("link", { name: "Ver mis citas" })).toHaveAttribute("href", "/dashboard/my-appointments");
    await expectNoSidewaysScroll(page);

    // 'Agendamiento': book the last free slot of the page (other specs book the first ones) inside the clinic's frame.
    await page.goto(`${origin}/dashboard/scheduling`);
    await expect(page.getByRole("link", { name: "Ver mis citas" })).toBeVisible();
    await expect(frame(page).getByText("Centro HCS@4")).toBeVisible();
    await frame(page).getByLabel("RUT").fill(patient.rut);
    await frame(page).getByLabel("Correo electrónico").fill(patient.email);
    const slotButton = frame(page)
      .getByRole("button", { name: /^Reservar / })
      .last();
    const slotId = (await slotButton.getAttribute("value"))!; // YYYY-MM-DDTHH:MM, Chile time
    expect(slotId).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const [isoDay, time] = slotId.split("T") as [string, string];
    const day = isoDay.split("-").reverse().join("-");
    await slotButton.click();
    await expect(frame(page).getByRole("heading", { name: "Hora reservada" })).toBeVisible();
    await expectNoSidewaysScroll(page);

    // The link under the frame leads to 'Mis citas', where the booking is.
    await page.getByRole("link", { name: "Ver mis citas" }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-appointments$/);
    const booked = page.getByRole("list", { name: "Próximas horas" }).getByRole("listitem", { name: `Hora del ${day} a las ${time}` });
    await expect(booked).toBeVisible();
    await expect(booked.locator(".appointment-status")).toHaveText("Reservada");
    await expect(booked).toContainText("Hospital Clínico del Sur");
    await expectNoSidewaysScroll(page);

    // 'Mi cuenta' names it as the next appointment: date, time and place.
    await page.goto(`${origin}/dashboard/account-settings`);
    await expect(nextAppointment(page)).toContainText(`${day} a las ${time}`);
    await expect(nextAppointment(page)).toContainText("Hospital Clínico del Sur");
    await nextAppointment(page).getByRole("link", { name: "Ver mis citas" }).click();
    await expect(booked).toBeVisible();

    // 'Agregar a mi calendario': an iCalendar file at Chile's hour, with its time zone.
    const download = page.waitForEvent("download");
    await booked.getByRole("button", { name: "Agregar a mi calendario" }).click();
    const calendar = await readFile(await (await download).path(), "utf8");
    expect(calendar).toContain(`DTSTART;TZID=America/Santiago:${isoDay.replaceAll("-", "")}T${time.replace(":", "")}00`);
    expect(calendar).toContain("BEGIN:VTIMEZONE");
    expect(calendar).toContain("TZID:America/Santiago");

    // 'Anular hora', confirmed in the dialog that names it.
    await booked.getByRole("button", { name: "Anular hora" }).click();
    const dialog = page.getByRole("dialog", { name: "¿Anular esta hora?" });
    await expect(dialog).toContainText(`Va a anular su hora el ${day} a las ${time}`);
    await dialog.getByRole("button", { name: "Sí, anular la hora" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(booked.locator(".appointment-status")).toHaveText("Anulada");

    // The slot is offered again in the booking page, and 'Mi cuenta' has no next appointment any more.
    await page.goto(`${origin}/dashboard/scheduling`);
    await expect(frame(page).locator(`button[name="slotId"][value="${slotId}"]`)).toBeVisible();
    await page.goto(`${origin}/dashboard/account-settings`);
    await expect(nextAppointment(page)).toContainText("No tiene horas próximas.");
  });
}
