import { malformedAnswer, providerGet, type ProviderRequest } from "../provider-http.ts";
import { toLabOrderDetail, toLabOrders, type FhirBundle } from "./fhir-lab.mapping.ts";
import type { LabConfig } from "./lab.config.ts";
import type { DayRange, FhirCollectionBundle, LabProvider } from "./lab.provider.ts";
import { LRUCache } from "lru-cache";

export const FHIR_JSON = "application/fhir+json";
const MAX_CACHED_PATIENTS = 50_000;
const PROVIDER_NAME = "laboratorio";

/** Search of the Patient with that RUT (once per RUT while LAB_PATIENT_ID_CACHE_SECONDS keeps its id). */
export const patientSearchParams = (identifierSystem: string, rut: string): Array<[string, string]> => [
  ["identifier", `${identifierSystem}|${rut}`],
];

/**
 * Search of DiagnosticReport that the orders list makes (the one call to the laboratory per page once the patient's id
 * is known); bench/throughput.bench.ts sends the same search to the provider directly.
 */
export const labOrdersSearchParams = (fhirPatientId: string, range: DayRange): Array<[string, string]> => [
  ["subject", `Patient/${fhirPatientId}`],
  ["category", "LAB"],
  ["date", `ge${range.from}`],
  ["date", `le${range.to}`],
  ["_include", "DiagnosticReport:result"],
  ["_count", "200"],
];

/**
 * Laboratory results from an HL7 FHIR R4 server: the patient by RUT identifier, then DiagnosticReport searches
 * (category LAB, date range; or one report by its order number with its Observations included).
 */
export function createFhirLabClient(config: LabConfig): LabProvider {
  const base = config.LAB_FHIR_BASE_URL.replace(/\/+$/, "");
  const settings = { base, clinicSystem: config.LAB_CLINIC_IDENTIFIER_SYSTEM };
  const request = (accept: string): ProviderRequest => ({
    providerName: PROVIDER_NAME,
    timeoutMs: config.LAB_TIMEOUT_MS,
    credentials: { bearerToken: config.LAB_FHIR_BEARER_TOKEN, username: config.LAB_FHIR_USERNAME, password: config.LAB_FHIR_PASSWORD },
    accept,
  });

  async function search(resource: string, params: Array<[string, string]>): Promise<FhirBundle> {
    const url = `${base}/${resource}?${new URLSearchParams(params).toString()}`;
    const bundle = await providerGet(url, request(FHIR_JSON), (response) => response.json() as Promise<FhirBundle>);
    if (!bundle || bundle.resourceType !== "Bundle") throw malformedAnswer(PROVIDER_NAME, `${resource}: la respuesta no es un Bundle`);
    return bundle;
  }

  // 0 seconds caches nothing (lru-cache would read a ttl of 0 as "never expires").
  const ttl = config.LAB_PATIENT_ID_CACHE_SECONDS * 1000;
  const knownPatients = ttl > 0 ? new LRUCache<string, string>({ max: MAX_CACHED_PATIENTS, ttl }) : null;

  /** The FHIR id of the patient with that RUT, or null when the laboratory does not know the patient. */
  async function patientId(rut: string): Promise<string | null> {
    const known = knownPatients?.get(rut);
    if (known) return known;
    const id = await searchPatientId(rut);
    if (id) knownPatients?.set(rut, id);
    return id;
  }

  async function searchPatientId(rut: string): Promise<string | null> {
    const bundle = await search("Patient", patientSearchParams(config.LAB_PATIENT_IDENTIFIER_SYSTEM, rut));
    const patients = (bundle.entry ?? []).filter((entry) => entry.resource?.resourceType === "Patient" && entry.resource.id);
    // Two patients with one RUT is a data problem at the laboratory: show neither rather than guess.
    if (patients.length !== 1) return null;
    return patients[0]!.resource!.id!;
  }

  return {
    async listOrders(rut, range) {
      const id = await patientId(rut);
      if (!id) return [];
      const bundle = await search("DiagnosticReport", labOrdersSearchParams(id, range));
      return toLabOrders(bundle, settings);
    },

    async getOrder(rut, orderNumber) {
      const id = await patientId(rut);
      if (!id) return null;
      const bundle = await search("DiagnosticReport", [
        ["subject", `Patient/${id}`],
        ["identifier", orderNumber],
        ["_include", "DiagnosticReport:result"],
      ]);
      const detail = toLabOrderDetail(bundle, settings);
      return detail?.orderNumber === orderNumber ? detail : null;
    },

    async exportReports(rut) {
      const id = await patientId(rut);
      const entry: FhirCollectionBundle["entry"] = [];
      if (id) {
        const bundle = await search("DiagnosticReport", [
          ["subject", `Patient/${id}`],
          ["category", "LAB"],
          ["_include", "DiagnosticReport:result"],
          ["_count", "200"],
        ]);
        for (const found of bundle.entry ?? []) {
          const resource = found.resource as FhirCollectionBundle["entry"][number]["resource"] | undefined;
          if (!resource?.id || (resource.resourceType !== "DiagnosticReport" && resource.resourceType !== "Observation")) continue;
          entry.push({ fullUrl: `${base}/${resource.resourceType}/${resource.id}`, resource });
        }
      }
      return { resourceType: "Bundle", type: "collection", timestamp: new Date().toISOString(), entry };
    },

    async fetchReport(reportUrl) {
      // Only addresses on the laboratory's own server get its credentials.
      if (!reportUrl.startsWith(`${base}/`)) throw malformedAnswer(PROVIDER_NAME, "informe fuera del servidor FHIR");
      const bytes = await providerGet(
        reportUrl,
        request("application/pdf"),
        async (response) => new Uint8Array(await response.arrayBuffer()),
      );
      if (!bytes) throw malformedAnswer(PROVIDER_NAME, "el informe ya no existe");
      return bytes;
    },
  };
}
