import { z } from "zod";

// datos.json of 'Descargar mis datos' (issue 28): the patient's data as the portal knows it. This zod schema is the
// documented one: the ZIP carries it as datos.schema.json (JSON Schema 2020-12, z.toJSONSchema) and the README
// describes it. A change that breaks readers bumps DATA_EXPORT_VERSION.

// Version 2 (issue 45): a bill's date is a calendar day (AAAA-MM-DD), no longer the instant of its UTC midnight, which a
// reader in Chile's zone took for the day before; and the patient's terms acceptance as 'Mis datos' shows it.
export const DATA_EXPORT_VERSION = 2;

const instant = z.string().describe("Instante ISO 8601 (UTC)");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("Día AAAA-MM-DD: una fecha del calendario, sin hora ni zona horaria");

export const ZExportPayment = z.object({
  buyOrder: z.string().describe("Orden de compra enviada a Webpay Plus"),
  amount: z.number().int().describe("Monto en pesos chilenos"),
  status: z.string().describe("Estado de Transbank: INITIALIZED, AUTHORIZED, FAILED, REVERSED, NULLIFIED…"),
  failureReason: z.string().nullable(),
  authorizationCode: z.string().nullable(),
  cardLast4: z.string().nullable().describe("Últimos 4 dígitos de la tarjeta, como los informa Transbank"),
  paymentTypeCode: z.string().nullable(),
  installmentsNumber: z.number().int().nullable(),
  transactionDate: instant.nullable(),
  createdAt: instant,
});

export const ZExportBill = z.object({
  id: z.number().int(),
  clinic: z.string().describe("Nombre de la clínica"),
  accountCode: z.string().describe("Número de cuenta de la clínica"),
  date: day.describe("Día de la cuenta (sin hora ni zona horaria)"),
  amount: z.number().int().describe("Monto en pesos chilenos"),
  status: z.enum(["Pendiente", "Pagada"]),
  files: z.array(z.object({ fileName: z.string(), size: z.number().int(), zipPath: z.string().describe("Ruta del PDF dentro del ZIP") })),
  payments: z.array(ZExportPayment),
});

export const ZExportLabOrder = z.object({
  orderNumber: z.string(),
  date: day,
  prestacion: z.string().describe("Prestación principal de la orden"),
  status: z.string().describe("'Validada' o 'Pendiente Validación'"),
});

export const ZExportImagingStudy = z.object({
  accessionNumber: z.string(),
  date: day,
  modality: z.string(),
  description: z.string(),
  hasReport: z.boolean(),
});

export const ZDataExport = z.object({
  version: z.literal(DATA_EXPORT_VERSION),
  generatedAt: instant,
  patient: z.object({
    rut: z.string().describe("RUT normalizado, p. ej. 12345678-5"),
    firstName: z.string().nullable(),
    secondName: z.string().nullable(),
    lastName: z.string().nullable(),
    secondLastName: z.string().nullable(),
    email: z.string(),
    phoneNumber: z.string().nullable().describe("E.164, p. ej. +56987654321"),
    birthDate: day.nullable(),
    createdAt: instant,
    termsAcceptedAt: instant
      .nullable()
      .describe("Aceptación de los términos y condiciones vigente, como la muestra 'Mis datos'; null si no los ha aceptado"),
    emailNotices: z
      .object({ results: z.boolean(), bills: z.boolean(), appointments: z.boolean() })
      .describe("Avisos por correo que recibe ('Mi cuenta' → 'Avisos'): resultados nuevos, cuentas nuevas, recordatorio de horas"),
  }),
  termsAcceptances: z.array(z.object({ version: z.string(), acceptedAt: instant })),
  clinics: z.array(z.object({ key: z.string(), title: z.string(), registeredAt: instant })),
  bills: z.array(ZExportBill),
  laboratoryOrders: z.array(ZExportLabOrder).nullable().describe("null si el laboratorio no respondió al preparar la descarga"),
  imagingStudies: z.array(ZExportImagingStudy).nullable().describe("null si imagenología no respondió al preparar la descarga"),
});
export type DataExportDocument = z.infer<typeof ZDataExport>;
