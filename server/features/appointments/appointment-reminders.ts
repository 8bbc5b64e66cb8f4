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
  /** Patients asked about (those with an address who did not turn reminders off). */
  patients: number;
  sent: number;
  /** The Chile day reminded of (YYYY-MM-DD). */
  day: string;
}

/**
 * Mails each patient who wants reminders one reminder per appointment of tomorrow (Chile time) still booked or
 * confirmed at the agenda. A cancelled appointment gets none, nor one already reminded. The agenda down ends the run
 * with an error, and the job is retried (what was sent stays claimed).
 */
export async function sendAppointmentReminders(deps: AppDeps, { now = new Date() }: { now?: Date } = {}): Promise<ReminderRunResult> {
  const tomorrow = dayAfter(chileToday(now));
  const patients = await deps.prisma.user.findMany({
    where: {
      roleType: Role.patient,
      email: { not: "" },
      OR: [{ noticePreference: null }, { noticePreference: { appointments: true } }],
    },
    select: { id: true, rut: true, email: true },
    orderBy: { id: "asc" },
  });
  let sent = 0;
  for (const patient of patients) {
    // A day either side: whichever day boundary the agenda searches by, tomorrow in Chile is inside; filtered below.
    const appointments = await deps.providers.scheduling.listAppointments(patient.rut, dayAfter(tomorrow, -1), dayAfter(tomorrow));
    for (const appointment of appointments) {
      const start = new Date(appointment.start);
      if (!remindable(appointment) || chileToday(start) !== tomorrow || start <= now) continue;
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
  }
  return { patients: patients.length, sent, day: tomorrow };
}
