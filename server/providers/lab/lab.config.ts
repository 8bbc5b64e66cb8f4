import { z } from "zod";
import { providerTimeoutMs, providerUrl } from "../provider-config.ts";

/** Laboratory results provider (FHIR R4 REST, see notes/imaging-and-lab.md); the mock of mocks/fhir in development. */
export const labConfigSchema = z.object({
  LAB_FHIR_BASE_URL: providerUrl("http://localhost:4300/fhir"),
  LAB_TIMEOUT_MS: providerTimeoutMs(10_000),
});

export type LabConfig = z.infer<typeof labConfigSchema>;
