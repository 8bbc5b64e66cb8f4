// What the laboratory and imaging calls answer (SPEC §3), shared with the web.

/** The two procedure states the portal shows (SPEC §4 laboratory rows). */
export const VALIDATED = "Validada";
export const PENDING = "Pendiente Validación";
export type ResultStatusLabel = typeof VALIDATED | typeof PENDING;

/** One row of the order list (SPEC §3 laboratory order). */
export interface LabOrderDto {
  /** YYYY-MM-DD. */
  date: string;
  orderNumber: string;
  prestacion: string;
  status: ResultStatusLabel;
  /** Signed portal link to the report PDF, or null while there is none. */
  urlPDF: string | null;
}

/** An order's detail: its procedures with their status (null while the laboratory has none). */
export interface LabOrderDetailDto extends LabOrderDto {
  listPrestaciones: Array<{ name: string; status: ResultStatusLabel }> | null;
}

/** One row of the imaging list (SPEC §3 imaging order). */
export interface ImagingOrderDto {
  /** YYYY-MM-DD. */
  date: string;
  modality: string;
  accessionNumber: string;
  description: string;
  hasReport: boolean;
}
