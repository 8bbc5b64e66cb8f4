import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppointmentDto } from "../../server/contract/appointments.dto.ts";
import { REMINDER_QUEUE_NAME } from "../../server/features/appointments/reminder-jobs.ts";
import { chileDayStart } from "../../server/lib/chile-time.ts";
import { APPOINTMENT_REMINDER_SUBJECT } from "../../server/lib/notice-mails.ts";
import { setNoticePreferences } from "../../server/lib/notice-preferences.ts";
import { schedulingCenters } from "../../mocks/scheduling/centers.ts";
import { Role } from "../../server/contract/roles.ts";
import { insertUser, plainRutOf, userIdByRut } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Reminders the day before an appointment (issue 44), on the job engine, over the scheduling mock's FHIR API over HTTP
// and the mail catcher. The mock seeds each demo patient (dated from today) an appointment booked in 3 days at Clínica
// Sur (HCS@4), one in 5 days at Maitenes and one in 12 days. The job runs on an injected clock: the day before the
// first of them, when "tomorrow" holds exactly that appointment for each demo patient.

const PATIENT_EMAIL = "paciente@portalpacientes.cl";
const CANCELLED_EMAIL = "incompleto@portalpacientes.cl";
const QUIET_EMAIL = "primer.ingreso@portalpacientes.cl";

let ctx: TestContext;
let patient: string;
let reminded: AppointmentDto;
let dayBefore: Date;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
  const list = async (token: string) =>
    (await ctx.app.inject({ method: "GET", url: api("/appointments"), headers: bearer(token) })).json().payload as AppointmentDto[];
  reminded = (await list(patient))[0]!;
  // Noon (Chile) of the day before the demo patient's first upcoming appointment.
  const [day, month, year] = reminded.date.split("-").map(Number) as [number, number, number];
  const previous = new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
  dayBefore = new Date(chileDayStart(previous).getTime() + 12 * 3_600_000);

  // The second demo patient cancelled theirs (on the same day); the third turned reminders off in 'Avisos'.
  const other = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
  const othersFirst = (await list(other))[0]!;
  expect(othersFirst.date).toBe(reminded.date);
  const cancelled = await ctx.app.inject({ method: "POST", url: api(`/appointments/${othersFirst.id}/cancel`), headers: bearer(other) });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  await setNoticePreferences(ctx.db.prisma, await userIdByRut(ctx.db.prisma, demo.firstLogin.rut), { appointments: false });
  await ctx.mail.clear();
}, 120_000);
afterAll(() => ctx.close());

const completedRuns = async () =>
  Number(
    (
      (await ctx.db.executeSql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'completed'", [REMINDER_QUEUE_NAME]))
        .rows[0] as { n: number }
    ).n,
  );

/** Queues a run through the job engine (on the injected clock) and waits until it completed and its mail left the queue. */
async function runReminderJob(now: Date) {
  const before = await completedRuns();
  await ctx.app.deps.reminderJobs!.runNow(now);
  await expect.poll(completedRuns, { timeout: 60_000, interval: 250 }).toBeGreaterThan(before);
  await ctx.mail.settled();
}

const reminders = async (to?: string) => (await ctx.mail.list(to)).filter((mail) => mail.subject.includes(APPOINTMENT_REMINDER_SUBJECT));

describe("reminders the day before an appointment", () => {
  it("mails the patient the date, time and place of tomorrow's appointment, with 'Mis citas' on the clinic's portal, and no specialty or professional", async () => {
    await runReminderJob(dayBefore);
    const mails = await reminders(PATIENT_EMAIL);
    expect(mails).toHaveLength(1); // the appointments of 5 and 12 days are not tomorrow
    const [mail] = mails;
    expect(mail!.subject).toBe(`${reminded.place.clinic} - ${APPOINTMENT_REMINDER_SUBJECT}`);
    expect(mail!.text).toContain(`Fecha: ${reminded.date}`);
    expect(mail!.text).toContain(`Hora: ${reminded.time}`);
    expect(mail!.text).toContain(`Lugar: ${reminded.place.name}, ${reminded.place.address}`);
    expect(mail!.text).toContain("http://clinicasur.localhost:4200/dashboard/my-appointments");
    expect(mail!.html).toContain('href="http://clinicasur.localhost:4200/dashboard/my-appointments"');
    expect(mail!.text).toContain("Si no desea recibir estos recordatorios, desactívelos en 'Mi cuenta', sección 'Avisos'.");
    expect(reminded.specialty).toBeTruthy();
    expect(reminded.professional).toBeTruthy();
    expect(mail!.text).not.toContain(reminded.specialty!);
    expect(mail!.html).not.toContain(reminded.specialty!);
    expect(mail!.text).not.toContain(reminded.professional!);
  });

  it("sends none for a cancelled appointment", async () => {
    expect(await reminders(CANCELLED_EMAIL)).toEqual([]);
    const userId = await userIdByRut(ctx.db.prisma, demo.incomplete.rut);
    expect(await ctx.db.prisma.sentNotice.count({ where: { userId, kind: "appointment" } })).toBe(0);
  });

  it("sends none to a patient who turned appointment reminders off in 'Avisos'", async () => {
    expect(await reminders(QUIET_EMAIL)).toEqual([]);
  });

  it("sends none twice: the job run again on the same day finds the same appointment and sends nothing", async () => {
    const before = { claimed: await ctx.db.prisma.sentNotice.count({ where: { kind: "appointment" } }), mails: (await reminders()).length };
    expect(before.claimed).toBe(1);
    await runReminderJob(new Date(dayBefore.getTime() + 4 * 3_600_000));
    expect(await ctx.db.prisma.sentNotice.count({ where: { kind: "appointment" } })).toBe(before.claimed);
    expect((await reminders()).length).toBe(before.mails);
  });

  it("sends nothing on a day before which no appointment falls (the day after tomorrow's appointment)", async () => {
    const before = (await reminders()).length;
    await runReminderJob(new Date(dayBefore.getTime() + 24 * 3_600_000));
    expect((await reminders()).length).toBe(before);
  });

  it("asks the agenda once by date per run, however many patients the portal has, and reminds the ones with an appointment", async () => {
    // 400 more patients with an address and reminders on; three of them booked tomorrow's slots in the clinics' pages.
    await ctx.db.prisma.user.createMany({
      data: Array.from({ length: 400 }, (_, index) => ({
        rut: plainRutOf(30_000_000 + index),
        email: `paciente${index}@correo.cl`,
        roleType: Role.patient,
        passwordHash: "sin-contraseña",
      })),
    });
    const [day, month, year] = reminded.date.split("-");
    const tomorrow = `${year}-${month}-${day}`;
    const booked: string[] = [];
    for (const center of schedulingCenters) {
      if (booked.length === 3) break;
      const page = await (await fetch(`${ctx.mocksUrl}/agenda?externalCenterId=${encodeURIComponent(center.externalCenterId)}`)).text();
      const slotId = [...page.matchAll(/name="slotId" value="([^"]+)"/g)].map((match) => match[1]!).find((id) => id.startsWith(tomorrow));
      if (!slotId) continue;
      const email = `recordada${booked.length}@correo.cl`;
      await insertUser(ctx.db.prisma, { rut: plainRutOf(31_000_000 + booked.length), email, roleType: Role.patient });
      const response = await fetch(`${ctx.mocksUrl}/agenda/reservar`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          externalCenterId: center.externalCenterId,
          slotId,
          rut: plainRutOf(31_000_000 + booked.length),
          email,
        }),
      });
      expect(response.status).toBe(200);
      booked.push(email);
    }
    expect(booked).toHaveLength(3);
    const searches = async () =>
      ((await (await fetch(`${ctx.mocksUrl}/agenda/registro`)).json()) as { appointmentSearches: { patient: number; date: number } })
        .appointmentSearches;
    const before = await searches();

    await runReminderJob(dayBefore);

    const after = await searches();
    expect(after.date - before.date).toBe(1); // fewer than a page of appointments in the three days asked
    expect(after.patient - before.patient).toBe(0);
    for (const email of booked) expect(await reminders(email)).toHaveLength(1);
    expect(await reminders("paciente0@correo.cl")).toEqual([]);
  });
});
