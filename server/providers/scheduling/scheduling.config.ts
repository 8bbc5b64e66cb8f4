import { z } from "zod";
import { optionalSecret, providerTimeoutMs, providerUrl } from "../provider-config.ts";

/** Scheduling provider (the clinics' agenda, an HL7 FHIR R4 server of Appointment, Slot, Practitioner and Location). */
export const schedulingConfigSchema = z.object({
  SCHEDULING_FHIR_BASE_URL: providerUrl("http://localhost:4300/agenda/fhir"),
  /** System of the identifier that carries the patient's RUN (HL7 Chile CL Core: the Registro Civil's RUN). */
  SCHEDULING_PATIENT_IDENTIFIER_SYSTEM: z.string().min(1).default("http://regcivil.cl/Validacion/RUN"),
  /** Either a bearer token or a user and password (basic); none when the server needs no credentials. */
  SCHEDULING_FHIR_BEARER_TOKEN: optionalSecret,
  SCHEDULING_FHIR_USERNAME: optionalSecret,
  SCHEDULING_FHIR_PASSWORD: optionalSecret,
  /** Per call; 'Mis citas' must answer within 3 s even when the agenda hangs (see circuit-breaker.ts). */
  SCHEDULING_TIMEOUT_MS: providerTimeoutMs(2_000),
});

export type SchedulingConfig = z.infer<typeof schedulingConfigSchema>;
