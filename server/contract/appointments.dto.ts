import { z } from "zod";

// 'Mis citas' (issue 44): the patient's appointments as the portal shows them, shared by the server and the web.

/** The appointment's status in the patient's words. */
export const APPOINTMENT_STATUS_LABELS = {
  booked: "Reservada",
  confirmed: "Confirmada",
  cancelled: "Anulada",
  fulfilled: "Realizada",
  noshow: "No asistió",
} as const;

export const ZAppointmentDto = z.object({
  id: z.string().describe("Id de la hora en la agenda de la clínica (FHIR Appointment.id)"),
  start: z.string().describe("Inicio, instante ISO 8601"),
  end: z.string().nullable(),
  date: z.string().describe("Día en hora de Chile, dd-mm-yyyy"),
  time: z.string().describe("Hora en hora de Chile, HH:MM"),
  professional: z.string().nullable(),
  specialty: z.string().nullable(),
  place: z.object({
    name: z.string().nullable().describe("Centro donde se atiende"),
    address: z.string().nullable(),
    clinic: z.string().nullable().describe("Clínica de la red a la que pertenece el centro"),
  }),
  status: z.enum(["Reservada", "Confirmada", "Anulada", "Realizada", "No asistió"]),
  upcoming: z.boolean().describe("true mientras la hora no ha pasado"),
  canCancel: z.boolean().describe("Se puede anular ahora: reservada o confirmada y fuera del plazo de anulación de la clínica"),
  cancelUntil: z.string().nullable().describe("Último instante en que se puede anular (ISO 8601); null si ya no corresponde"),
  canConfirm: z.boolean().describe("Se puede confirmar la asistencia: reservada, aún sin confirmar y por venir"),
});
export type AppointmentDto = z.infer<typeof ZAppointmentDto>;

export const appointmentMessages = {
  notFound: "Hora no encontrada",
  notCancellable: "Esta hora ya no se puede anular",
  notConfirmable: "Esta hora ya no se puede confirmar",
  changed: "La hora cambió en la agenda de la clínica. Revise 'Mis citas' e intente nuevamente.",
  /** Inside the clinic's cancellation window. */
  tooLate: (hours: number) =>
    `Esta hora solo se puede anular hasta ${hours === 1 ? "1 hora" : `${hours} horas`} antes de la atención. Para anularla, comuníquese con la clínica.`,
} as const;

/** What the agenda records as the reason of a cancellation made in the portal. */
export const CANCELLED_BY_PATIENT = "Anulada por el paciente en el Portal Pacientes";
export const CANCELLED_BY_CAREGIVER = "Anulada por su cuidador en el Portal Pacientes";
