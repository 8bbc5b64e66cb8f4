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
  releaseNote: z
    .string()
    .nullable()
    .describe("'Este resultado se entrega en forma presencial' cuando la clínica entrega algún examen de la orden solo en persona"),
});
export type LabOrderDto = z.infer<typeof ZLabOrderDto>;

/** An order's detail: its procedures with their status (null while the laboratory has none). */
export const ZResultFlag = z.enum(["H", "L", "N"]).describe("H alto, L bajo, N normal (HL7 v3 ObservationInterpretation)");

export const ZLabProcedureDto = z.object({
  name: z.string(),
  status: ZResultStatusLabel,
  code: z.string().nullable().describe("Código del examen (LOINC); con él se pide su evolución"),
  value: z.number().nullable().describe("Valor numérico; null si el resultado no es numérico, no está listo o no se publica"),
  unit: z.string().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  flag: ZResultFlag.nullable(),
  releaseNote: z.string().nullable(),
});
export type LabProcedureDto = z.infer<typeof ZLabProcedureDto>;

export const ZLabOrderDetailDto = ZLabOrderDto.extend({
  listPrestaciones: z.array(ZLabProcedureDto).nullable(),
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

/** One analyte's values across all the patient's orders (issue 31, 'Ver evolución'), oldest first. */
export const ZAnalyteSeriesDto = z.object({
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  points: z.array(
    z.object({
      date: z.string().describe("YYYY-MM-DD"),
      orderNumber: z.string(),
      value: z.number(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      flag: ZResultFlag.nullable(),
    }),
  ),
});
export type AnalyteSeriesDto = z.infer<typeof ZAnalyteSeriesDto>;
