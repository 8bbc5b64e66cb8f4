import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import { ICalCalendar, ICalEventStatus } from "ical-generator";
import { DateTime } from "luxon";
import { z } from "zod";
import {
  APPOINTMENT_STATUS_LABELS,
  appointmentMessages,
  CANCELLED_BY_CAREGIVER,
  CANCELLED_BY_PATIENT,
  type AppointmentDto,
} from "../../contract/appointments.dto.ts";
import { clinicByKey, schedulingFrames, type ClinicKey } from "../../contract/clinics.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { actingForPatient, type PatientScope } from "../../lib/access.ts";
import { audit, type AppointmentsAuditAction } from "../../lib/audit.ts";
import { chileToday, formatChileDay, formatChileHourMinute } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";
import { answerCache, readThrough, ZActualizar, type AnswerCache, type ReadOptions } from "../../lib/provider-answer-cache.ts";
import type { ChangeResult, ProviderAppointment } from "../../providers/scheduling/scheduling.provider.ts";
import { cancelWindowHours } from "./appointments.config.ts";

// 'Mis citas' (issue 44): the patient's appointments at the clinics' agenda (server/providers/scheduling), or a
// dependent's through a caregiver link covering 'Agendamiento'. One service for REST and tRPC; every read and change
// is audited with the patient, so a caregiver's show in the dependent's 'Accesos a mis datos'.

const TIME_ZONE = "America/Santiago";

export const ZAppointmentId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]{1,64}$/, appointmentMessages.notFound);

/** The clinic of the network a scheduling center belongs to (a Maitenes sub-site belongs to Maitenes). */
export function clinicOfCenter(externalCenterId: string | null): ClinicKey | null {
  const frame = schedulingFrames.find((candidate) => candidate.externalCenterId === externalCenterId);
  if (!frame) return null;
  return frame.key.startsWith("maitenes") ? "maitenes" : (frame.key as ClinicKey);
}

/** The last instant the patient may cancel, from the clinic's window (APPOINTMENT_CANCEL_HOURS[_BY_CLINIC]). */
function cancelDeadline(deps: AppDeps, appointment: ProviderAppointment): { deadline: Date; hours: number } {
  const hours = cancelWindowHours(deps.config, clinicOfCenter(appointment.place.externalCenterId));
  return { deadline: new Date(Date.parse(appointment.start) - hours * 3_600_000), hours };
}

const isOpen = (appointment: ProviderAppointment) => appointment.state === "booked" || appointment.state === "confirmed";

export function toAppointmentDto(deps: AppDeps, appointment: ProviderAppointment, now: Date): AppointmentDto {
  const start = new Date(appointment.start);
  const upcoming = start.getTime() > now.getTime();
  const { deadline } = cancelDeadline(deps, appointment);
  const clinicKey = clinicOfCenter(appointment.place.externalCenterId);
  return {
    id: appointment.id,
    start: appointment.start,
    end: appointment.end,
    date: formatChileDay(start),
    time: formatChileHourMinute(start),
    professional: appointment.professional,
    specialty: appointment.specialty,
    place: {
      name: appointment.place.name,
      address: appointment.place.address,
      clinic: clinicKey ? (clinicByKey(clinicKey)?.title ?? null) : null,
    },
    status: APPOINTMENT_STATUS_LABELS[appointment.state],
    upcoming,
    canCancel: upcoming && isOpen(appointment) && now < deadline,
    cancelUntil: upcoming && isOpen(appointment) ? deadline.toISOString() : null,
    canConfirm: upcoming && appointment.state === "booked",
  };
}

/** Upcoming appointments first (soonest first), then past ones (latest first). */
export function inPatientOrder(appointments: AppointmentDto[]): AppointmentDto[] {
  const upcoming = appointments.filter((appointment) => appointment.upcoming).sort((a, b) => a.start.localeCompare(b.start));
  const past = appointments.filter((appointment) => !appointment.upcoming).sort((a, b) => b.start.localeCompare(a.start));
  return [...upcoming, ...past];
}

/** The first day 'Mis citas' asks the agenda for: `historyDays` (APPOINTMENT_HISTORY_DAYS) before today in Chile. */
export function historyStartDay(now: Date, historyDays: number): string {
  const day = new Date(`${chileToday(now)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - historyDays);
  return day.toISOString().slice(0, 10);
}

const historyStart = (deps: AppDeps, now: Date) => historyStartDay(now, deps.config.APPOINTMENT_HISTORY_DAYS);

// The agenda's answer to a patient's list is kept APPOINTMENTS_CACHE_SECONDS (30 by default) per instance, so a patient
// moving between 'Mis citas' and 'Mi cuenta' costs the portal, not the agenda (issue 44's budget). What cannot wait is
// asked fresh: a cancellation or confirmation drops the kept answer here and the web asks with `refresh` after it (the
// next read may land on another instance), and the web asks fresh after the patient leaves 'Agendamiento', where a
// booking inside the clinic's frame is invisible to the portal. The access check and the audit run on every read.
const appointmentAnswers = new WeakMap<AppDeps, AnswerCache<ProviderAppointment[]> | null>();

function appointmentAnswersOf(deps: AppDeps): AnswerCache<ProviderAppointment[]> | null {
  if (!appointmentAnswers.has(deps)) appointmentAnswers.set(deps, answerCache(deps.config.APPOINTMENTS_CACHE_SECONDS));
  return appointmentAnswers.get(deps)!;
}

const answerKey = (scope: PatientScope, fromDay: string) => JSON.stringify([scope.patient.id, scope.patient.rut, fromDay]);

/** REST query of GET /appointments: `actualizar=true` asks the agenda again instead of taking the kept answer. */
export const ZAppointmentsQuery = z.object({ actualizar: ZActualizar.optional() });

/**
 * GET /appointments: the patient's appointments, upcoming first, then past ones (APPOINTMENT_HISTORY_DAYS back), as
 * the agenda answered within APPOINTMENTS_CACHE_SECONDS unless `refresh` asks again.
 */
export async function listAppointments(
  deps: AppDeps,
  user: SessionUser,
  meta: RequestMeta,
  options: ReadOptions = {},
): Promise<AppointmentDto[]> {
  const scope = await actingForPatient(deps, user, meta, "agendamiento", "appointment.list");
  const now = new Date();
  const fromDay = historyStart(deps, now);
  const appointments = await readThrough(
    appointmentAnswersOf(deps),
    answerKey(scope, fromDay),
    () => deps.providers.scheduling.listAppointments(scope.patient.rut, fromDay),
    options,
  );
  await audit(deps, user, meta, {
    scope,
    action: "appointment.list",
    resource: "Appointment",
    after: { appointments: appointments.map((appointment) => appointment.id) },
  });
  return inPatientOrder(appointments.map((appointment) => toAppointmentDto(deps, appointment, now)));
}

/** One appointment of the patient in scope; another patient's id answers like a missing one (audited as failed). */
async function patientAppointment(
  deps: AppDeps,
  user: SessionUser,
  rawId: unknown,
  meta: RequestMeta,
  action: AppointmentsAuditAction,
): Promise<{ scope: PatientScope; appointment: ProviderAppointment }> {
  const scope = await actingForPatient(deps, user, meta, "agendamiento", action);
  const id = parseInput(ZAppointmentId, rawId);
  const appointment = await deps.providers.scheduling.getAppointment(scope.patient.rut, id);
  if (!appointment) {
    await audit(deps, user, meta, { scope, action, resource: "Appointment", resourceId: id, outcome: "failed" });
    throw new AppError("NOT_FOUND", appointmentMessages.notFound);
  }
  return { scope, appointment };
}

async function applyChange(
  deps: AppDeps,
  user: SessionUser,
  meta: RequestMeta,
  scope: PatientScope,
  action: AppointmentsAuditAction,
  appointment: ProviderAppointment,
  result: ChangeResult | null,
): Promise<AppointmentDto> {
  const entry = { scope, action, resource: "Appointment", resourceId: appointment.id };
  if (!result) {
    await audit(deps, user, meta, { ...entry, outcome: "failed" });
    throw new AppError("NOT_FOUND", appointmentMessages.notFound);
  }
  if (!result.ok) {
    await audit(deps, user, meta, { ...entry, outcome: "failed", after: { refused: result.reason } });
    throw new AppError(
      "CONFLICT",
      result.reason === "changed"
        ? appointmentMessages.changed
        : action === "appointment.cancel"
          ? appointmentMessages.notCancellable
          : appointmentMessages.notConfirmable,
    );
  }
  await audit(deps, user, meta, { ...entry, before: { status: appointment.state }, after: { status: result.appointment.state } });
  appointmentAnswersOf(deps)?.delete(answerKey(scope, historyStart(deps, new Date())));
  // The change's answer has no professional or place details: read the appointment again with them.
  const fresh = (await deps.providers.scheduling.getAppointment(scope.patient.rut, appointment.id)) ?? result.appointment;
  return toAppointmentDto(deps, fresh, new Date());
}

/** POST /appointments/{id}/cancel: 'Anular hora', refused inside the clinic's cancellation window (default 2 hours). */
export async function cancelAppointment(deps: AppDeps, user: SessionUser, rawId: unknown, meta: RequestMeta): Promise<AppointmentDto> {
  const { scope, appointment } = await patientAppointment(deps, user, rawId, meta, "appointment.cancel");
  const now = new Date();
  const entry = { scope, action: "appointment.cancel" as const, resource: "Appointment", resourceId: appointment.id };
  if (!isOpen(appointment) || Date.parse(appointment.start) <= now.getTime()) {
    await audit(deps, user, meta, { ...entry, outcome: "failed", after: { refused: appointment.state } });
    throw new AppError("CONFLICT", appointmentMessages.notCancellable);
  }
  const { deadline, hours } = cancelDeadline(deps, appointment);
  if (now >= deadline) {
    await audit(deps, user, meta, { ...entry, outcome: "failed", after: { refused: "window", hours } });
    throw new AppError("CONFLICT", appointmentMessages.tooLate(hours));
  }
  const reason = scope.linkId === null ? CANCELLED_BY_PATIENT : CANCELLED_BY_CAREGIVER;
  const result = await deps.providers.scheduling.cancelAppointment(scope.patient.rut, appointment, reason);
  return applyChange(deps, user, meta, scope, "appointment.cancel", appointment, result);
}

/** POST /appointments/{id}/confirm: 'Confirmar asistencia' to an upcoming appointment not yet confirmed. */
export async function confirmAppointment(deps: AppDeps, user: SessionUser, rawId: unknown, meta: RequestMeta): Promise<AppointmentDto> {
  const { scope, appointment } = await patientAppointment(deps, user, rawId, meta, "appointment.confirm");
  if (appointment.state !== "booked" || Date.parse(appointment.start) <= Date.now()) {
    await audit(deps, user, meta, {
      scope,
      action: "appointment.confirm",
      resource: "Appointment",
      resourceId: appointment.id,
      outcome: "failed",
      after: { refused: appointment.state },
    });
    throw new AppError("CONFLICT", appointmentMessages.notConfirmable);
  }
  const result = await deps.providers.scheduling.confirmAppointment(scope.patient.rut, appointment);
  return applyChange(deps, user, meta, scope, "appointment.confirm", appointment, result);
}

/**
 * The appointment as an iCalendar file (RFC 5545, ical-generator): DTSTART/DTEND with TZID=America/Santiago and its
 * VTIMEZONE, so Google Calendar, Outlook and a phone's calendar show Chile's hour; the place and the professional.
 */
export function appointmentCalendar(appointment: ProviderAppointment, portalUrl: string | null): string {
  const calendar = new ICalCalendar({ prodId: { company: "Portal Pacientes", product: "Mis citas", language: "ES" } });
  // No calendar-wide zone (DTSTAMP stays in UTC as RFC 5545 asks); the event's zone brings its VTIMEZONE.
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  const start = DateTime.fromISO(appointment.start, { zone: TIME_ZONE });
  const end = appointment.end ? DateTime.fromISO(appointment.end, { zone: TIME_ZONE }) : start.plus({ minutes: 30 });
  const place = [appointment.place.name, appointment.place.address].filter(Boolean).join(", ");
  calendar.createEvent({
    id: `${appointment.id}@portal-pacientes`,
    start,
    end,
    timezone: TIME_ZONE,
    summary: appointment.specialty ? `Hora médica: ${appointment.specialty}` : "Hora médica",
    location: place || null,
    description: [
      appointment.professional ? `Profesional: ${appointment.professional}` : null,
      portalUrl ? `Mis citas: ${portalUrl}` : null,
    ]
      .filter(Boolean)
      .join("\n"),
    status: appointment.state === "cancelled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/** GET /appointments/{id}/calendar.ics: 'Agregar a mi calendario'. */
export async function appointmentCalendarFile(
  deps: AppDeps,
  user: SessionUser,
  rawId: unknown,
  meta: RequestMeta,
): Promise<{ fileName: string; content: string }> {
  const { scope, appointment } = await patientAppointment(deps, user, rawId, meta, "appointment.calendar");
  await audit(deps, user, meta, { scope, action: "appointment.calendar", resource: "Appointment", resourceId: appointment.id });
  return { fileName: `cita-${appointment.id}.ics`, content: appointmentCalendar(appointment, null) };
}
