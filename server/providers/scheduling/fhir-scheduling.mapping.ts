import { isValidRut, normalizeRut } from "../../contract/rut.ts";
import type { AppointmentState, ProviderAppointment } from "./scheduling.provider.ts";

// FHIR R4 Appointment (with its Practitioner and Location, included by the search) → the portal's appointment.

interface Reference {
  reference?: string;
  display?: string;
  type?: string;
  identifier?: { system?: string; value?: string };
}

export interface FhirAppointment {
  resourceType: "Appointment";
  id?: string;
  meta?: { versionId?: string };
  status?: string;
  start?: string;
  end?: string;
  specialty?: Array<{ text?: string; coding?: Array<{ display?: string }> }>;
  serviceType?: Array<{ text?: string; coding?: Array<{ display?: string }> }>;
  participant?: Array<{ actor?: Reference; status?: string }>;
  [key: string]: unknown;
}

interface FhirLocation {
  resourceType: "Location";
  id?: string;
  name?: string;
  identifier?: Array<{ system?: string; value?: string }>;
  address?: { line?: string[]; city?: string; text?: string };
}

interface FhirPractitioner {
  resourceType: "Practitioner";
  id?: string;
  name?: Array<{ text?: string; prefix?: string[]; given?: string[]; family?: string }>;
}

export interface FhirBundle {
  resourceType: "Bundle";
  total?: number;
  link?: Array<{ relation?: string; url?: string }>;
  entry?: Array<{ resource?: { resourceType?: string; id?: string } & Record<string, unknown> }>;
}

/** The identifier system of a scheduling center (CODE@number) on a Location. */
export const CENTER_IDENTIFIER_SYSTEM = "urn:portal-pacientes:agenda:centro";

const textOf = (concepts: FhirAppointment["specialty"]) => concepts?.[0]?.text ?? concepts?.[0]?.coding?.[0]?.display ?? null;

export function isPatientActor(actor: Reference | undefined, identifierSystem: string, rut: string): boolean {
  // Compared in the portal's normal form: an agenda may write the RUN with dots or a lower-case k.
  const value = actor?.identifier?.system === identifierSystem ? actor.identifier.value : undefined;
  return value !== undefined && normalizeRut(value) === normalizeRut(rut);
}

/**
 * The RUN of the appointment's patient (the participant whose actor carries an identifier of `identifierSystem`),
 * normalized as the portal stores it ("12.345.678-k" → "12345678-K"); null when there is none or it is not a valid RUN.
 */
export function appointmentPatientRun(appointment: FhirAppointment, identifierSystem: string): string | null {
  for (const participant of appointment.participant ?? []) {
    const identifier = participant.actor?.identifier;
    if (identifier?.system !== identifierSystem || !identifier.value) continue;
    if (participant.actor?.type !== undefined && participant.actor.type !== "Patient") continue;
    return isValidRut(identifier.value) ? normalizeRut(identifier.value) : null;
  }
  return null;
}

function stateOf(appointment: FhirAppointment, patientStatus: string | undefined): AppointmentState | null {
  switch (appointment.status) {
    case "booked":
    case "pending":
    case "proposed":
      return patientStatus === "accepted" ? "confirmed" : "booked";
    case "arrived":
    case "checked-in":
    case "fulfilled":
      return "fulfilled";
    case "cancelled":
      return "cancelled";
    case "noshow":
      return "noshow";
    default:
      // entered-in-error and waitlist are not appointments the patient has.
      return null;
  }
}

function practitionerName(practitioner: FhirPractitioner | undefined): string | null {
  const name = practitioner?.name?.[0];
  if (!name) return null;
  return name.text ?? [...(name.prefix ?? []), ...(name.given ?? []), name.family ?? ""].join(" ").trim();
}

function addressOf(location: FhirLocation | undefined): string | null {
  const address = location?.address;
  if (!address) return null;
  return address.text ?? ([...(address.line ?? []), address.city].filter(Boolean).join(", ") || null);
}

/** The patient's appointment, or null when it is not theirs or not one to show. */
export function toProviderAppointment(
  appointment: FhirAppointment,
  included: Map<string, Record<string, unknown>>,
  patient: { identifierSystem: string; rut: string },
): ProviderAppointment | null {
  const participants = appointment.participant ?? [];
  const patientParticipant = participants.find((participant) => isPatientActor(participant.actor, patient.identifierSystem, patient.rut));
  if (!patientParticipant || !appointment.id || !appointment.start) return null;
  const state = stateOf(appointment, patientParticipant.status);
  if (!state) return null;
  const actorOf = (type: string) => participants.find((participant) => participant.actor?.reference?.startsWith(`${type}/`))?.actor;
  const practitionerActor = actorOf("Practitioner");
  const locationActor = actorOf("Location");
  const practitioner = included.get(practitionerActor?.reference ?? "") as FhirPractitioner | undefined;
  const location = included.get(locationActor?.reference ?? "") as FhirLocation | undefined;
  return {
    id: appointment.id,
    start: new Date(appointment.start).toISOString(),
    end: appointment.end ? new Date(appointment.end).toISOString() : null,
    state,
    professional: practitionerName(practitioner) ?? practitionerActor?.display ?? null,
    specialty: textOf(appointment.specialty) ?? textOf(appointment.serviceType),
    place: {
      name: location?.name ?? locationActor?.display ?? null,
      address: addressOf(location),
      externalCenterId: location?.identifier?.find((identifier) => identifier.system === CENTER_IDENTIFIER_SYSTEM)?.value ?? null,
    },
    version: appointment.meta?.versionId ?? null,
  };
}

/** Every resource of a search answer by its reference ("Location/centro-HCS-4"). */
export function resourcesByReference(bundle: FhirBundle): Map<string, Record<string, unknown>> {
  const resources = new Map<string, Record<string, unknown>>();
  for (const entry of bundle.entry ?? []) {
    const resource = entry.resource;
    if (resource?.resourceType && resource.id) resources.set(`${resource.resourceType}/${resource.id}`, resource);
  }
  return resources;
}
