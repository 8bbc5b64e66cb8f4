/** What the appointments feature needs from the clinics' agenda, whatever protocol it speaks. */

/**
 * An appointment's state: booked and not yet confirmed by the patient, booked and confirmed, cancelled, attended, or
 * missed. FHIR R4: Appointment.status booked (with the patient participant's status accepted when confirmed),
 * cancelled, fulfilled (also arrived / checked-in), noshow.
 */
export type AppointmentState = "booked" | "confirmed" | "cancelled" | "fulfilled" | "noshow";

export interface ProviderAppointment {
  /** The agenda's id of the appointment (FHIR Appointment.id). */
  id: string;
  /** ISO instants. */
  start: string;
  end: string | null;
  state: AppointmentState;
  professional: string | null;
  specialty: string | null;
  place: {
    name: string | null;
    /** Street and city in one line, or null when the agenda gives none. */
    address: string | null;
    /** The scheduling center id (CODE@number), which names the clinic; null when the agenda does not say. */
    externalCenterId: string | null;
  };
  /** The agenda's version of the appointment, sent back with a change so two changes never cross (FHIR If-Match). */
  version: string | null;
}

/** An appointment of any patient, found by date (the reminders), with the RUN of its patient. */
export interface AgendaAppointment extends ProviderAppointment {
  /** The patient's RUN, normalized as the portal stores it ("12345678-5"). */
  rut: string;
}

/** Why the agenda refused a change: it changed since it was read, or its rules forbid it (past, already cancelled…). */
export type AgendaRefusal = "changed" | "refused";

export type ChangeResult = { ok: true; appointment: ProviderAppointment } | { ok: false; reason: AgendaRefusal };

export interface SchedulingProvider {
  /**
   * The patient's appointments from `fromDay` (YYYY-MM-DD) on, up to `toDay` included when given, earliest first; empty
   * when the agenda does not know the RUN.
   */
  listAppointments(rut: string, fromDay: string, toDay?: string): Promise<ProviderAppointment[]>;
  /**
   * Every patient's appointments from `fromDay` to `toDay` (YYYY-MM-DD, both included), earliest first: one search by
   * date, however many patients, read page by page. For the portal's own jobs (reminders), never for a patient's page.
   */
  appointmentsBetween(fromDay: string, toDay: string): Promise<AgendaAppointment[]>;
  /** One appointment of that patient, or null when there is none with that id for that RUN. */
  getAppointment(rut: string, id: string): Promise<ProviderAppointment | null>;
  /**
   * Cancels the patient's appointment with the reason the agenda records (the slot goes back to free), provided it is
   * still at the version the caller checked; null when the patient has no such appointment.
   */
  cancelAppointment(rut: string, appointment: ProviderAppointment, reason: string): Promise<ChangeResult | null>;
  /** Records that the patient will attend (same conditions as cancelAppointment). */
  confirmAppointment(rut: string, appointment: ProviderAppointment): Promise<ChangeResult | null>;
}
