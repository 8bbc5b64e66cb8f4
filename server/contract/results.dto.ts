import { z } from "zod";

// What the laboratory and imaging calls answer (SPEC §3), shared with the web; the types are inferred from the
// schemas, which also describe the responses in the API document (/api/docs).

/** The two procedure states the portal shows (SPEC §4 laboratory rows). */
export const VALIDATED = "Validada";
export const PENDING = "Pendiente Validación";
export const ZResultStatusLabel = z.enum([VALIDATED, PENDING]);
export type ResultStatusLabel = z.infer<typeof ZResultStatusLabel>;

/** One row of the order list (SPEC §3 laboratory order). */
export const ZLabOrderDto = z.object({
  date: z.string().describe("YYYY-MM-DD"),
  orderNumber: z.string(),
  prestacion: z.string(),
  status: ZResultStatusLabel,
  urlPDF: z.string().nullable().describe("Enlace firmado del portal al informe PDF; null mientras no hay informe"),
});
export type LabOrderDto = z.infer<typeof ZLabOrderDto>;

/** An order's detail: its procedures with their status (null while the laboratory has none). */
export const ZLabOrderDetailDto = ZLabOrderDto.extend({
  listPrestaciones: z.array(z.object({ name: z.string(), status: ZResultStatusLabel })).nullable(),
});
export type LabOrderDetailDto = z.infer<typeof ZLabOrderDetailDto>;

/** One row of the imaging list (SPEC §3 imaging order). */
export const ZImagingOrderDto = z.object({
  date: z.string().describe("YYYY-MM-DD"),
  modality: z.string(),
  accessionNumber: z.string(),
  description: z.string(),
  hasReport: z.boolean(),
});
export type ImagingOrderDto = z.infer<typeof ZImagingOrderDto>;
