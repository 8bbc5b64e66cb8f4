/** What the laboratory feature needs from a laboratory information system, whatever protocol it speaks. */

import { PENDING, VALIDATED, type ResultStatusLabel } from "../../contract/results.dto.ts";

export { PENDING, VALIDATED, type ResultStatusLabel };

export interface LabProcedure {
  name: string;
  status: ResultStatusLabel;
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
