import { malformedAnswer, providerFetch, providerGet, type ProviderRequest } from "../provider-http.ts";
import {
  appointmentPatientRun,
  isPatientActor,
  resourcesByReference,
  toProviderAppointment,
  type FhirAppointment,
  type FhirBundle,
} from "./fhir-scheduling.mapping.ts";
import type { SchedulingConfig } from "./scheduling.config.ts";
import type { AgendaAppointment, ChangeResult, ProviderAppointment, SchedulingProvider } from "./scheduling.provider.ts";

const FHIR_JSON = "application/fhir+json";
const PROVIDER_NAME = "agenda";

/**
 * The search 'Mis citas' makes (one call per page): the patient's appointments by RUN identifier from a day on, with
 * their professional and place included. bench/ sends the same search to the provider directly.
 */
export const appointmentsSearchParams = (
  identifierSystem: string,
  rut: string,
  fromDay: string,
  toDay?: string,
): Array<[string, string]> => [
  ["patient:identifier", `${identifierSystem}|${rut}`],
  ["date", `ge${fromDay}`],
  ...(toDay ? [["date", `le${toDay}`] as [string, string]] : []),
  ["_include", "Appointment:actor"],
  ["_count", "200"],
];

/** The date search of the reminders: a page of this many appointments (the agenda may send fewer), at most this many pages. */
export const DATE_SEARCH_PAGE_SIZE = 100;
export const DATE_SEARCH_MAX_PAGES = 500;

/**
 * Appointments from an HL7 FHIR R4 agenda: searched by the patient's RUN as an identifier of the patient reference,
 * changed the FHIR way (update of the Appointment: status cancelled with a cancelationReason, or the patient
 * participant's status accepted), each change guarded by If-Match on the version read.
 */
export function createFhirSchedulingClient(config: SchedulingConfig): SchedulingProvider {
  const base = config.SCHEDULING_FHIR_BASE_URL.replace(/\/+$/, "");
  const identifierSystem = config.SCHEDULING_PATIENT_IDENTIFIER_SYSTEM;
  const request: ProviderRequest = {
    providerName: PROVIDER_NAME,
    timeoutMs: config.SCHEDULING_TIMEOUT_MS,
    credentials: {
      bearerToken: config.SCHEDULING_FHIR_BEARER_TOKEN,
      username: config.SCHEDULING_FHIR_USERNAME,
      password: config.SCHEDULING_FHIR_PASSWORD,
    },
    accept: FHIR_JSON,
  };

  async function search(params: Array<[string, string]>): Promise<FhirBundle> {
    return searchAt(`${base}/Appointment?${new URLSearchParams(params).toString()}`);
  }

  async function searchAt(url: string): Promise<FhirBundle> {
    const bundle = await providerGet(url, request, (response) => response.json() as Promise<FhirBundle>);
    if (!bundle || bundle.resourceType !== "Bundle") throw malformedAnswer(PROVIDER_NAME, "Appointment: la respuesta no es un Bundle");
    return bundle;
  }

  function appointmentsOf(bundle: FhirBundle, rut: string): ProviderAppointment[] {
    const included = resourcesByReference(bundle);
    return (bundle.entry ?? [])
      .map((entry) => entry.resource)
      .filter((resource): resource is FhirAppointment => resource?.resourceType === "Appointment")
      .map((appointment) => toProviderAppointment(appointment, included, { identifierSystem, rut }))
      .filter((appointment): appointment is ProviderAppointment => appointment !== null)
      .sort((a, b) => a.start.localeCompare(b.start));
  }

  /** Reads the appointment, changes it with `change` and sends it back with If-Match on the version the caller checked. */
  async function update(
    rut: string,
    checked: ProviderAppointment,
    change: (appointment: FhirAppointment) => FhirAppointment,
  ): Promise<ChangeResult | null> {
    const url = `${base}/Appointment/${encodeURIComponent(checked.id)}`;
    const current = await providerGet(url, request, (response) => response.json() as Promise<FhirAppointment>);
    if (!current) return null;
    if (current.resourceType !== "Appointment") throw malformedAnswer(PROVIDER_NAME, "Appointment: la respuesta no es un Appointment");
    if (!current.participant?.some((participant) => isPatientActor(participant.actor, identifierSystem, rut))) return null;
    const version = current.meta?.versionId ?? null;
    if (checked.version !== null && version !== checked.version) return { ok: false, reason: "changed" };

    const answer = await providerFetch(
      url,
      request,
      {
        method: "PUT",
        body: JSON.stringify(change(current)),
        headers: { "content-type": FHIR_JSON, ...(version === null ? {} : { "if-match": `W/"${version}"` }) },
        readStatuses: [409, 412, 422],
      },
      async (response) => ({ status: response.status, body: (await response.json()) as FhirAppointment }),
    );
    if (!answer) return null;
    if (answer.status === 409 || answer.status === 412) return { ok: false, reason: "changed" };
    if (answer.status === 422) return { ok: false, reason: "refused" };
    const appointment = toProviderAppointment(answer.body, new Map(), { identifierSystem, rut });
    if (!appointment) throw malformedAnswer(PROVIDER_NAME, "Appointment: la respuesta al cambio no es la hora del paciente");
    return { ok: true, appointment };
  }

  /**
   * Every page of a search by date, following Bundle.link "next" (only on the agenda's own origin, so credentials never
   * leave for another host), up to DATE_SEARCH_MAX_PAGES: past that the run fails rather than remind some patients only.
   */
  async function appointmentsBetween(fromDay: string, toDay: string): Promise<AgendaAppointment[]> {
    const found = new Map<string, AgendaAppointment>();
    let url: string | undefined = `${base}/Appointment?${new URLSearchParams([
      ["date", `ge${fromDay}`],
      ["date", `le${toDay}`],
      ["_include", "Appointment:actor"],
      ["_count", String(DATE_SEARCH_PAGE_SIZE)],
    ]).toString()}`;
    for (let pages = 0; url; pages++) {
      if (pages === DATE_SEARCH_MAX_PAGES) {
        throw malformedAnswer(PROVIDER_NAME, `Appointment: la búsqueda por fecha tiene más de ${DATE_SEARCH_MAX_PAGES} páginas`);
      }
      const bundle = await searchAt(url);
      const included = resourcesByReference(bundle);
      for (const entry of bundle.entry ?? []) {
        const resource = entry.resource;
        if (resource?.resourceType !== "Appointment") continue;
        const fhirAppointment = resource as FhirAppointment;
        const rut = appointmentPatientRun(fhirAppointment, identifierSystem);
        const appointment = rut ? toProviderAppointment(fhirAppointment, included, { identifierSystem, rut }) : null;
        if (rut && appointment) found.set(appointment.id, { ...appointment, rut });
      }
      const next = bundle.link?.find((link) => link.relation === "next")?.url;
      if (next && new URL(next, url).origin !== new URL(base).origin) {
        throw malformedAnswer(PROVIDER_NAME, "Appointment: la página siguiente está en otro servidor");
      }
      url = next ? new URL(next, url).toString() : undefined;
    }
    return [...found.values()].sort((a, b) => a.start.localeCompare(b.start));
  }

  return {
    appointmentsBetween,

    async listAppointments(rut, fromDay, toDay) {
      return appointmentsOf(await search(appointmentsSearchParams(identifierSystem, rut, fromDay, toDay)), rut);
    },

    async getAppointment(rut, id) {
      const bundle = await search([
        ["patient:identifier", `${identifierSystem}|${rut}`],
        ["_id", id],
        ["_include", "Appointment:actor"],
      ]);
      return appointmentsOf(bundle, rut).find((appointment) => appointment.id === id) ?? null;
    },

    cancelAppointment(rut, appointment, reason) {
      return update(rut, appointment, (current) => ({
        ...current,
        status: "cancelled",
        cancelationReason: {
          coding: [{ system: "http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason", code: "pat", display: "Patient" }],
          text: reason,
        },
      }));
    },

    confirmAppointment(rut, appointment) {
      return update(rut, appointment, (current) => ({
        ...current,
        participant: current.participant?.map((participant) =>
          isPatientActor(participant.actor, identifierSystem, rut) ? { ...participant, status: "accepted" } : participant,
        ),
      }));
    },
  };
}
