import type { AppConfig } from "../config.ts";
import { createDicomWebImagingClient } from "./imaging/dicomweb-imaging.client.ts";
import type { ImagingProvider } from "./imaging/imaging.provider.ts";
import { createFhirLabClient } from "./lab/fhir-lab.client.ts";
import type { LabProvider } from "./lab/lab.provider.ts";

/** The portal's external providers, built once from configuration; tests may pass their own to buildApp. */
export interface Providers {
  lab: LabProvider;
  imaging: ImagingProvider;
}

export function createProviders(config: AppConfig): Providers {
  return {
    lab: createFhirLabClient(config),
    imaging: createDicomWebImagingClient(config),
  };
}
