import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { applyBehaviour, type MockBehaviour } from "../results/behaviour.ts";
import { matchesDate } from "../fhir/fhir-mock.ts";
import type { Booking, BookingLedger, BookingStatus } from "./bookings.ts";
import { findCenter, schedulingCenters, type SchedulingCenter } from "./centers.ts";
import { isValidRut, normalizeRut } from "./rut.ts";
import { chileInstant, doctorNames, slotsForDay, type Slot } from "./slots.ts";

// The agenda's HL7 FHIR R4 API (JSON), over the same appointments as the booking pages:
//   GET /agenda/fhir/Appointment?patient:identifier=<RUN system>|<RUN>&date=ge<day>&status=booked,fulfilled&_id=<id>&_include=Appointment:actor
//   GET /agenda/fhir/Appointment?date=ge<day>&date=le<day>&_include=Appointment:actor   every patient's appointments of
//                                       those days (the portal's back office: reminders), paged with _count (≤ 100) and
//                                       _offset, the next page in Bundle.link "next"
//   GET /agenda/fhir/Appointment/<id>
//   PUT /agenda/fhir/Appointment/<id>   status cancelled + cancelationReason (frees the slot), or the patient's
//                                       participant status accepted (attendance confirmed); If-Match W/"<version>" honoured
//   GET /agenda/fhir/{Slot|Schedule|Practitioner|Location}/<id>

/** HL7 Chile CL Core: the RUN as a patient identifier (the Registro Civil's system). */
export const RUN_IDENTIFIER_SYSTEM = "http://regcivil.cl/Validacion/RUN";
const BOOKING_IDENTIFIER_SYSTEM = "urn:portal-pacientes:agenda:reserva";
const CANCELATION_REASON_SYSTEM = "http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason";
const FHIR_JSON = "application/fhir+json; charset=utf-8";
const SLOT_MINUTES = 30;

/** Appointment searches per page asked for: 100 by default; at most 100 by date, 500 for one patient. */
const DEFAULT_PAGE = 100;
const MAX_DATE_PAGE = 100;
const MAX_PATIENT_PAGE = 500;

/** How many Appointment searches (pages included) the agenda answered, by kind; read at GET /agenda/registro. */
export class AgendaSearchLog {
  readonly searches = { patient: 0, date: 0 };

  record(kind: "patient" | "date"): void {
    this.searches[kind] += 1;
  }
}

export interface SchedulingFhirOptions {
  ledger: BookingLedger;
  now: () => Date;
  behaviour?: MockBehaviour;
  /** Counts the searches answered (the main agenda only), so that a test can see how often the portal asks. */
  searchLog?: AgendaSearchLog;
}

type Query = Record<string, string | string[] | undefined>;
type Resource = Record<string, unknown> & { resourceType: string; id: string };

const values = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function operationOutcome(code: string, diagnostics: string) {
  return { resourceType: "OperationOutcome", issue: [{ severity: "error", code, diagnostics }] };
}

/** FHIR ids allow [A-Za-z0-9.-]: "HCS@4" becomes "HCS-4". */
const centerPart = (externalCenterId: string) => externalCenterId.replace("@", "-");
const slugOf = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export const locationId = (externalCenterId: string) => `centro-${centerPart(externalCenterId)}`;
const scheduleId = (externalCenterId: string, doctor: string) => `agenda-${centerPart(externalCenterId)}-${slugOf(doctor)}`;
export const slotResourceId = (externalCenterId: string, slot: Slot) =>
  `${centerPart(externalCenterId)}-${slot.date}-${slot.time.replace(":", "")}`;
const practitionerId = (doctor: string) => slugOf(doctor);

function slotTimes(slot: Slot) {
  const start = chileInstant(slot.date, slot.time);
  return { start: start.toISOString(), end: new Date(start.getTime() + SLOT_MINUTES * 60_000).toISOString() };
}

function locationResource(center: SchedulingCenter): Resource {
  return {
    resourceType: "Location",
    id: locationId(center.externalCenterId),
    identifier: [{ system: "urn:portal-pacientes:agenda:centro", value: center.externalCenterId }],
    status: "active",
    name: center.name,
    address: { use: "work", line: [center.address.line], city: center.address.city, country: "CL" },
  };
}

function practitionerResource(doctor: string): Resource {
  const [prefix, ...names] = doctor.split(" ");
  return {
    resourceType: "Practitioner",
    id: practitionerId(doctor),
    active: true,
    name: [{ text: doctor, prefix: [prefix ?? ""], given: names.slice(0, -1), family: names.at(-1) ?? "" }],
  };
}

function appointmentResource(booking: Booking, center: SchedulingCenter): Resource {
  const { slot } = booking;
  const appointment: Resource = {
    resourceType: "Appointment",
    id: booking.code,
    meta: { versionId: String(booking.version), lastUpdated: booking.updated.toISOString() },
    identifier: [{ system: BOOKING_IDENTIFIER_SYSTEM, value: booking.code }],
    status: booking.status,
    specialty: [{ text: slot.specialty }],
    ...slotTimes(slot),
    minutesDuration: SLOT_MINUTES,
    slot: [{ reference: `Slot/${slotResourceId(booking.externalCenterId, slot)}` }],
    created: booking.created.toISOString(),
    participant: [
      {
        actor: { type: "Patient", identifier: { system: RUN_IDENTIFIER_SYSTEM, value: booking.rut } },
        required: "required",
        status: booking.confirmed ? "accepted" : "needs-action",
      },
      {
        actor: { reference: `Practitioner/${practitionerId(slot.doctor)}`, display: slot.doctor },
        required: "required",
        status: "accepted",
      },
      {
        actor: { reference: `Location/${locationId(booking.externalCenterId)}`, display: center.name },
        required: "required",
        status: "accepted",
      },
    ],
  };
  if (booking.cancelationReason) {
    appointment.cancelationReason = {
      coding: [{ system: CANCELATION_REASON_SYSTEM, code: "pat", display: "Patient" }],
      text: booking.cancelationReason,
    };
  }
  return appointment;
}

const searchStatuses: readonly string[] = ["booked", "fulfilled", "cancelled", "noshow"] satisfies BookingStatus[];

/** The normalized RUN of a `patient:identifier` (or `patient.identifier`) token, or null when it is not a RUN. */
function runOf(token: string): string | null {
  const [system, value] = token.includes("|") ? token.split("|", 2) : [undefined, token];
  if (system && system !== RUN_IDENTIFIER_SYSTEM) return null;
  return value && isValidRut(value) ? normalizeRut(value) : null;
}

export const schedulingFhir: FastifyPluginAsync<SchedulingFhirOptions> = async (app, options) => {
  const { ledger, now } = options;
  applyBehaviour(app, options.behaviour ?? "normal", () => ({
    type: FHIR_JSON,
    body: operationOutcome("transient", "Servicio de agenda no disponible"),
  }));
  const base = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}${app.prefix}`;
  const fhirJson = (reply: FastifyReply, body: unknown, status = 200) => reply.status(status).type(FHIR_JSON).send(body);
  const notFound = (reply: FastifyReply, what: string) => fhirJson(reply, operationOutcome("not-found", `${what} no encontrado`), 404);

  app.addContentTypeParser(["application/fhir+json", "application/json"], { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, undefined);
    }
  });

  app.get("/metadata", async (request, reply) =>
    fhirJson(reply, {
      resourceType: "CapabilityStatement",
      status: "active",
      date: "2026-11-28",
      kind: "instance",
      software: { name: "Portal Pacientes – simulador de agenda" },
      implementation: { description: "Agenda de horas simulada (HL7 FHIR R4)", url: base(request) },
      fhirVersion: "4.0.1",
      format: ["json"],
      rest: [
        {
          mode: "server",
          resource: [
            {
              type: "Appointment",
              interaction: [{ code: "read" }, { code: "update" }, { code: "search-type" }],
              versioning: "versioned-update",
              searchInclude: ["Appointment:actor"],
              searchParam: [
                { name: "patient", type: "reference", documentation: `Con :identifier y el sistema ${RUN_IDENTIFIER_SYSTEM}` },
                { name: "date", type: "date" },
                { name: "status", type: "token" },
                { name: "_id", type: "token" },
                { name: "_count", type: "number", documentation: "Sin paciente, a lo más 100 por página" },
                { name: "_offset", type: "number", documentation: "Página siguiente: Bundle.link next" },
              ],
            },
            { type: "Slot", interaction: [{ code: "read" }] },
            { type: "Schedule", interaction: [{ code: "read" }] },
            { type: "Practitioner", interaction: [{ code: "read" }] },
            { type: "Location", interaction: [{ code: "read" }] },
          ],
        },
      ],
    }),
  );

  app.get("/Appointment", async (request, reply) => {
    const query = request.query as Query;
    const patientToken = values(query["patient:identifier"] ?? query["patient.identifier"])[0];
    const dates = values(query.date);
    // Without a patient, only a bounded day range (the portal's back office: tomorrow's reminders for everyone).
    const byDate = !patientToken;
    if (byDate && !(dates.some((date) => /^(ge|gt)/.test(date)) && dates.some((date) => /^(le|lt)/.test(date)))) {
      return fhirJson(
        reply,
        operationOutcome("required", "Falta el parámetro patient:identifier o un intervalo de fechas (date=ge…&date=le…)"),
        400,
      );
    }
    options.searchLog?.record(byDate ? "date" : "patient");
    const statuses = values(query.status).flatMap((value) => value.split(","));
    if (statuses.some((status) => !searchStatuses.includes(status))) {
      return fhirJson(reply, operationOutcome("invalid", "Parámetro status inválido"), 400);
    }
    const rut = patientToken ? runOf(patientToken) : null;
    const maxCount = byDate ? MAX_DATE_PAGE : MAX_PATIENT_PAGE;
    const count = Math.min(Number(values(query._count)[0] ?? DEFAULT_PAGE) || DEFAULT_PAGE, maxCount);
    const offsetParam = values(query._offset)[0] ?? "0";
    if (!/^\d{1,9}$/.test(offsetParam)) return fhirJson(reply, operationOutcome("invalid", "Parámetro _offset inválido"), 400);
    const offset = Number(offsetParam);
    const includeActors = values(query._include).includes("Appointment:actor");

    const matches: Booking[] = [];
    const ids = values(query._id).flatMap((value) => value.split(","));
    for (const booking of byDate ? ledger.all() : rut ? ledger.forRut(rut) : []) {
      if (ids.length > 0 && !ids.includes(booking.code)) continue;
      const match = matchesDate(chileInstant(booking.slot.date, booking.slot.time), dates);
      if (match === "invalid") return fhirJson(reply, operationOutcome("invalid", "Parámetro date inválido"), 400);
      if (match && (statuses.length === 0 || statuses.includes(booking.status))) matches.push(booking);
    }
    // A stable order (start, then id), so that the pages of one search neither repeat nor skip an appointment.
    matches.sort(
      (a, b) => a.slot.date.localeCompare(b.slot.date) || a.slot.time.localeCompare(b.slot.time) || a.code.localeCompare(b.code),
    );
    const page = matches.slice(offset, offset + count);
    const included = new Map<string, Resource>();
    if (includeActors) {
      for (const booking of page) {
        const center = findCenter(booking.externalCenterId)!;
        const practitioner = practitionerResource(booking.slot.doctor);
        const location = locationResource(center);
        included.set(`Practitioner/${practitioner.id}`, practitioner);
        included.set(`Location/${location.id}`, location);
      }
    }
    const entries = [
      ...page.map((booking) => ({ resource: appointmentResource(booking, findCenter(booking.externalCenterId)!), mode: "match" })),
      ...[...included.values()].map((resource) => ({ resource, mode: "include" })),
    ];
    // The FHIR way of paging: the same search with _count and _offset, in Bundle.link (self, next while more remain).
    const pageUrl = (pageOffset: number) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (name === "_offset" || name === "_count") continue;
        for (const one of values(value)) params.append(name, one);
      }
      params.set("_count", String(count));
      params.set("_offset", String(pageOffset));
      return `${base(request)}/Appointment?${params.toString()}`;
    };
    const link = [{ relation: "self", url: pageUrl(offset) }];
    if (offset + count < matches.length) link.push({ relation: "next", url: pageUrl(offset + count) });
    return fhirJson(reply, {
      resourceType: "Bundle",
      type: "searchset",
      total: matches.length,
      link,
      entry: entries.map(({ resource, mode }) => ({
        fullUrl: `${base(request)}/${resource.resourceType}/${resource.id}`,
        resource,
        search: { mode },
      })),
    });
  });

  app.get<{ Params: { id: string } }>("/Appointment/:id", async (request, reply) => {
    const booking = ledger.find(request.params.id);
    if (!booking) return notFound(reply, "Appointment");
    return fhirJson(reply.header("ETag", `W/"${booking.version}"`), appointmentResource(booking, findCenter(booking.externalCenterId)!));
  });

  app.put<{ Params: { id: string } }>("/Appointment/:id", async (request, reply) => {
    const booking = ledger.find(request.params.id);
    if (!booking) return notFound(reply, "Appointment");
    const ifMatch = request.headers["if-match"];
    if (ifMatch && ifMatch !== `W/"${booking.version}"`) {
      return fhirJson(reply, operationOutcome("conflict", "La hora cambió desde que se leyó; léala de nuevo"), 412);
    }
    const update = request.body as Record<string, unknown> | undefined;
    if (update?.resourceType !== "Appointment" || update.id !== booking.code) {
      return fhirJson(reply, operationOutcome("invalid", "Se espera el recurso Appointment con el mismo id"), 400);
    }
    const patientParticipant = (update.participant as Array<{ actor?: { type?: string }; status?: string }> | undefined)?.find(
      (participant) => participant.actor?.type === "Patient",
    );
    const center = findCenter(booking.externalCenterId)!;

    if (update.status === "cancelled" && booking.status !== "cancelled") {
      const reason = (update.cancelationReason as { text?: unknown } | undefined)?.text;
      if (typeof reason !== "string" || !reason.trim()) {
        return fhirJson(reply, operationOutcome("required", "Para anular se requiere cancelationReason"), 422);
      }
      if (booking.status !== "booked" || chileInstant(booking.slot.date, booking.slot.time) <= now()) {
        return fhirJson(reply, operationOutcome("business-rule", "Solo se anula una hora reservada que aún no ocurre"), 422);
      }
      ledger.cancel(booking, reason.trim(), now());
    } else if (update.status === booking.status && patientParticipant?.status === "accepted" && !booking.confirmed) {
      if (booking.status !== "booked") {
        return fhirJson(reply, operationOutcome("business-rule", "Solo se confirma una hora reservada"), 422);
      }
      ledger.confirm(booking, now());
    } else if (update.status !== booking.status) {
      return fhirJson(
        reply,
        operationOutcome("business-rule", `La agenda no permite pasar de ${booking.status} a ${String(update.status)}`),
        422,
      );
    }
    return fhirJson(reply.header("ETag", `W/"${booking.version}"`), appointmentResource(booking, center));
  });

  app.get<{ Params: { id: string } }>("/Location/:id", async (request, reply) => {
    const center = schedulingCenters.find((candidate) => locationId(candidate.externalCenterId) === request.params.id);
    return center ? fhirJson(reply, locationResource(center)) : notFound(reply, "Location");
  });

  app.get<{ Params: { id: string } }>("/Practitioner/:id", async (request, reply) => {
    const doctor = doctorNames.find((name) => practitionerId(name) === request.params.id);
    return doctor ? fhirJson(reply, practitionerResource(doctor)) : notFound(reply, "Practitioner");
  });

  app.get<{ Params: { id: string } }>("/Schedule/:id", async (request, reply) => {
    for (const center of schedulingCenters) {
      const doctor = doctorNames.find((name) => scheduleId(center.externalCenterId, name) === request.params.id);
      if (doctor) {
        return fhirJson(reply, {
          resourceType: "Schedule",
          id: request.params.id,
          active: true,
          actor: [
            { reference: `Practitioner/${practitionerId(doctor)}`, display: doctor },
            { reference: `Location/${locationId(center.externalCenterId)}`, display: center.name },
          ],
        });
      }
    }
    return notFound(reply, "Schedule");
  });

  app.get<{ Params: { id: string } }>("/Slot/:id", async (request, reply) => {
    const match = /^([A-Z]+-\d+)-(\d{4}-\d{2}-\d{2})-(\d{2})(\d{2})$/.exec(request.params.id);
    const center = match ? findCenter(match[1]!.replace("-", "@")) : undefined;
    const slot =
      center && match
        ? slotsForDay(center.externalCenterId, match[2]!).find((candidate) => candidate.time === `${match[3]}:${match[4]}`)
        : undefined;
    if (!center || !slot) return notFound(reply, "Slot");
    return fhirJson(reply, {
      resourceType: "Slot",
      id: request.params.id,
      schedule: { reference: `Schedule/${scheduleId(center.externalCenterId, slot.doctor)}` },
      specialty: [{ text: slot.specialty }],
      status: ledger.isBooked(center.externalCenterId, slot.id) ? "busy" : "free",
      ...slotTimes(slot),
    });
  });
};
