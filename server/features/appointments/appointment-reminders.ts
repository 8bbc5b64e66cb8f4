import { Role } from "../../contract/roles.ts";
import type { AppDeps } from "../../deps.ts";
import { chileToday, formatChileDay, formatChileHourMinute } from "../../lib/chile-time.ts";
import { appointmentReminder } from "../../lib/notice-mails.ts";
import { clinicFor, portalOf, sendOnce } from "../../lib/patient-notices.ts";
import type { ProviderAppointment } from "../../providers/scheduling/scheduling.provider.ts";
import { clinicOfCenter } from "./appointments.service.ts";

// Reminders the day before an appointment (issue 44), run by the job of reminder-jobs.ts on the one job engine, on a
// cron schedule (APPOINTMENT_REMINDER_CRON, America/Santiago). Each reminder is claimed in SentNotice (kind
// "appointment", the appointment's id and start) before its mail is queued, so a second run, a retry or another
// replica sends nothing twice; an appointment moved to another day is a new reference and is reminded again.

/** The schedule: APPOINTMENT_REMINDER_CRON, by default 10:00 and 16:00 every day (never in tests). */
export function reminderCron(config: Pick<AppDeps["config"], "APPOINTMENT_REMINDER_CRON" | "NODE_ENV">): string {
  return config.APPOINTMENT_REMINDER_CRON ?? (config.NODE_ENV === "test" ? "" : "0 10,16 * * *");
}

function dayAfter(day: string, days = 1): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const remindable = (appointment: ProviderAppointment) => appointment.state === "booked" || appointment.state === "confirmed";

export interface ReminderRunResult {
  /** Appointments of tomorrow still booked or confirmed at the agenda, of any patient. */
  appointments: number;
  /** Portal patients among theirs who want reminders (an address, reminders not turned off): those considered. */
  patients: number;
  sent: number;
  /** The Chile day reminded of (YYYY-MM-DD). */
  day: string;
}

/** Patients looked up per query: a bounded `rut IN (…)` list whatever the size of the day. */
const PATIENT_LOOKUP_CHUNK = 1_000;

/**
 * Mails each patient who wants reminders one reminder per appointment of tomorrow (Chile time) still booked or
 * confirmed at the agenda. The agenda is asked once, by date, for everyone's appointments (read page by page), and the
 * portal's patients among them are found by RUT in chunks: a run costs the same few agenda requests whether the
 * network has a hundred patients or a hundred thousand. A cancelled appointment gets none, nor one already reminded.
 * The agenda down ends the run with an error, and the job is retried (what was sent stays claimed).
 */
export async function sendAppointmentReminders(deps: AppDeps, { now = new Date() }: { now?: Date } = {}): Promise<ReminderRunResult> {
  const tomorrow = dayAfter(chileToday(now));
  // A day either side: whichever day boundary the agenda searches by, tomorrow in Chile is inside; filtered here.
  const found = await deps.providers.scheduling.appointmentsBetween(dayAfter(tomorrow, -1), dayAfter(tomorrow));
  const appointments = found.filter((appointment) => {
    const start = new Date(appointment.start);
    return remindable(appointment) && chileToday(start) === tomorrow && start > now;
  });

  const runs = [...new Set(appointments.map((appointment) => appointment.rut))];
  const patients = new Map<string, { id: number; rut: string; email: string }>();
  for (let index = 0; index < runs.length; index += PATIENT_LOOKUP_CHUNK) {
    const chunk = await deps.prisma.user.findMany({
      where: {
        rut: { in: runs.slice(index, index + PATIENT_LOOKUP_CHUNK) },
        roleType: Role.patient,
        email: { not: "" },
        OR: [{ noticePreference: null }, { noticePreference: { appointments: true } }],
      },
      select: { id: true, rut: true, email: true },
    });
    for (const patient of chunk) patients.set(patient.rut, patient);
  }

  let sent = 0;
  for (const appointment of appointments) {
    const patient = patients.get(appointment.rut);
    if (!patient) continue;
    const start = new Date(appointment.start);
    const clinic = await clinicFor(deps, patient.id, clinicOfCenter(appointment.place.externalCenterId));
    const ref = `${appointment.id}@${appointment.start}`;
    const claimed = await sendOnce(deps, patient.id, { kind: "appointment", ref }, () =>
      appointmentReminder(patient.email, {
        clinicTitle: clinic.title,
        date: formatChileDay(start),
        time: formatChileHourMinute(start),
        place: [appointment.place.name, appointment.place.address].filter(Boolean).join(", ") || clinic.title,
        portalUrl: `${portalOf(deps, clinic)}/dashboard/my-appointments`,
      }),
    );
    if (claimed) sent++;
  }
  return { appointments: appointments.length, patients: patients.size, sent, day: tomorrow };
}
