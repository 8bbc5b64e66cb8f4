import { z } from "zod";
import { optionalSecret, providerTimeoutMs, providerUrl } from "../provider-config.ts";

/** Laboratory provider (HL7 FHIR R4 server of the clinic's LIS). */
export const labConfigSchema = z.object({
  LAB_FHIR_BASE_URL: providerUrl("http://localhost:4300/fhir"),
  /** System of the patient identifier that carries the RUT (CL Core RUN). */
  LAB_PATIENT_IDENTIFIER_SYSTEM: z.string().min(1).default("http://regcivil.cl/Validacion/RUN"),
  /** System of the identifier that names the clinic (its key in the portal's catalogue) in DiagnosticReport.performer. */
  LAB_CLINIC_IDENTIFIER_SYSTEM: z.string().min(1).default("urn:portal-pacientes:clinica"),
  /** Either a bearer token or a user and password (basic); none when the server needs no credentials. */
  LAB_FHIR_BEARER_TOKEN: optionalSecret,
  LAB_FHIR_USERNAME: optionalSecret,
  LAB_FHIR_PASSWORD: optionalSecret,
  /** Per call; a results page must answer within 3 s even when the provider hangs (see circuit-breaker.ts). */
  LAB_TIMEOUT_MS: providerTimeoutMs(2_000),
  /**
   * How long the FHIR id found for a RUT is reused (0 = ask every time). A FHIR resource id does not change, so each
   * results page makes one call to the laboratory instead of two; a RUT the laboratory does not know is never kept.
   */
  LAB_PATIENT_ID_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
});

export type LabConfig = z.infer<typeof labConfigSchema>;
