/** What the laboratory feature needs from a laboratory information system, whatever protocol it speaks. */

import { PENDING, VALIDATED, type ResultStatusLabel } from "../../contract/results.dto.ts";

export { PENDING, VALIDATED, type ResultStatusLabel };

/** High, low or normal against the reference range (HL7 v3 ObservationInterpretation H / L / N). */
export type ResultFlag = "H" | "L" | "N";

/** One procedure (analyte) of an order: a FHIR Observation. */
export interface LabProcedure {
  name: string;
  status: ResultStatusLabel;
  /** The test's code (LOINC at most laboratories), which release rules name; null when the laboratory gives none. */
  code: string | null;
  /** The measured number with its unit; null for a text result or one not measured yet. */
  quantity: { value: number; unit: string } | null;
  referenceRange: { low: number | null; high: number | null } | null;
  flag: ResultFlag | null;
}

export interface LabOrder {
  orderNumber: string;
  /** Day the order was taken, YYYY-MM-DD. */
  date: string;
  /** The order's main procedure (its report title). */
  prestacion: string;
  status: ResultStatusLabel;
  /** The provider's address of the report PDF (may need the provider's credentials), or null when there is none yet. */
  reportUrl: string | null;
  /** Key of the clinic whose laboratory ran the order (its release rules apply), or null when the laboratory does not say. */
  clinicKey: string | null;
  /** The order's procedures as far as the laboratory reported them (empty while it has none). */
  results: LabProcedure[];
}

export interface LabOrderDetail extends LabOrder {
  /** The order's procedures; null while the laboratory has none registered. */
  procedures: LabProcedure[] | null;
}

export interface DayRange {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
}

export interface LabProvider {
  /** The patient's orders taken within the range, newest first (cancelled ones left out). */
  listOrders(rut: string, range: DayRange): Promise<LabOrder[]>;
  /** One order of that patient, or null when the patient has no such order. */
  getOrder(rut: string, orderNumber: string): Promise<LabOrderDetail | null>;
  /** The bytes of a report PDF the provider itself pointed to (reportUrl). */
  fetchReport(reportUrl: string): Promise<Uint8Array>;
  /**
   * Every laboratory DiagnosticReport of the patient with its result Observations, as the provider holds them: a FHIR
   * R4 Bundle of type collection (the patient's copy in 'Descargar mis datos', issue 28). Empty when the lab does not
   * know the patient.
   */
  exportReports(rut: string): Promise<FhirCollectionBundle>;
}

/** A FHIR R4 Bundle of type collection, resources as the provider sent them. */
export interface FhirCollectionBundle {
  resourceType: "Bundle";
  type: "collection";
  timestamp: string;
  entry: Array<{ fullUrl: string; resource: { resourceType: string; id: string } & Record<string, unknown> }>;
}
