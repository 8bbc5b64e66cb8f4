import { z } from "zod";
import { clinics } from "../../contract/clinics.ts";

const clinicKeys = clinics.map((clinic) => clinic.key as string);

/** "hcs-rcr=24,maitenes=4" → { "hcs-rcr": 24, maitenes: 4 }; only the network's clinic keys, whole hours 0–168. */
const cancelHoursByClinic = z
  .string()
  .default("")
  .transform((text, context) => {
    const hours: Record<string, number> = {};
    for (const item of text
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([a-z-]+)=(\d{1,3})$/.exec(item);
      if (!match || !clinicKeys.includes(match[1]!) || Number(match[2]) > 168) {
        context.addIssue({
          code: "custom",
          message: `«${item}» no es clave-de-clínica=horas (claves: ${clinicKeys.join(", ")}; 0 a 168 horas)`,
        });
        return z.NEVER;
      }
      hours[match[1]!] = Number(match[2]);
    }
    return hours;
  });

/** 'Mis citas' (issue 44): cancellation windows and the reminder mail. */
export const appointmentsConfigSchema = z.object({
  /** A patient may cancel up to this many hours before the appointment (clinics without their own value). */
  APPOINTMENT_CANCEL_HOURS: z.coerce.number().int().min(0).max(168).default(2),
  /** Clinics with their own window: "hcs-rcr=24,maitenes=4". */
  APPOINTMENT_CANCEL_HOURS_BY_CLINIC: cancelHoursByClinic,
  /** How far back 'Mis citas' shows past appointments. */
  APPOINTMENT_HISTORY_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
  /**
   * How long an instance keeps the agenda's answer to a patient's list (0–60 s; 0 asks every time). The portal asks
   * again after a cancellation or a confirmation, after the patient leaves 'Agendamiento', and on 'Actualizar'.
   */
  APPOINTMENTS_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(30),
  /**
   * When the reminders of tomorrow's appointments go out (cron, America/Santiago); by default 10:00 and 16:00 (the
   * second run catches what was booked since, or what the agenda being down held back). Empty: never (tests).
   */
  APPOINTMENT_REMINDER_CRON: z.string().trim().optional(),
});

export type AppointmentsConfig = z.infer<typeof appointmentsConfigSchema>;

export function cancelWindowHours(config: AppointmentsConfig, clinicKey: string | null): number {
  return (clinicKey ? config.APPOINTMENT_CANCEL_HOURS_BY_CLINIC[clinicKey] : undefined) ?? config.APPOINTMENT_CANCEL_HOURS;
}
