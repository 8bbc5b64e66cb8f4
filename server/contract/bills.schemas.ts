import { z } from "zod";
import { DEFAULT_SORT, patientSortFields, sortDirections, staffSortFields } from "./bills.lists.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./paging.ts";
import { digitsOnlySchema, MAX_PDF_BYTES, messages, rutSchema } from "./validation.ts";
import { dayToDate } from "./days.ts";

// Input schemas of hospital bills (SPEC §3, §5, §9), shared by the REST routes, the tRPC router, the services and the
// React bill form. REST query strings arrive as text, so numbers are coerced; z.object strips every key not named.

export const billMessages = {
  notFound: "Cuenta hospitalaria no encontrada",
  fileNotFound: "Archivo no encontrado",
  invalidId: "Identificador de cuenta inválido",
  invalidPath: "Identificador de archivo inválido",
  invalidPage: "La página debe ser un número entero mayor o igual a 1",
  invalidLimit: "El límite debe ser un número entero entre 1 y 100",
  invalidSort: (allowed: readonly string[]) => `Orden inválido: use uno de ${allowed.join(", ")}`,
  invalidDirection: "Dirección de orden inválida: use ASC o DESC",
  invalidSearch: "Búsqueda inválida",
  searchTooLong: "La búsqueda no puede superar los 100 caracteres",
  invalidDate: "La fecha es inválida",
  invalidAmount: "El monto debe ser un número entero entre 1 y 999.999.999",
  invalidStatus: "Estado inválido",
  invalidClinic: "Clínica inválida",
  invalidBody: "Datos inválidos",
  accountCodeTooLong: "El ID de cuenta no puede superar los 20 dígitos",
  noPatient: (rut: string) => `No existe un paciente con el Rut ${rut}`,
  duplicateAccount: (code: string) => `Ya existe la cuenta ${code} en esta clínica`,
  clinicNotAllowed: "No tiene privilegios sobre la clínica de esta cuenta",
  accountCodeNotEditable: "El ID de cuenta no se puede modificar",
  paidBillLocked: "La cuenta tiene un pago registrado: no se puede cambiar su monto, su paciente ni su estado de pago",
  paymentInProgressLocked: "La cuenta tiene un pago en curso: no se puede cambiar su monto ni su paciente hasta que termine",
  fileTooLarge: "El archivo pesa más de 2MB",
  pdfOnly: messages.pdfOnly,
  noFiles: "No se recibió ningún archivo",
  tooManyFiles: "Se pueden adjuntar a lo más 10 archivos por envío",
  notMultipart: "El archivo debe enviarse como multipart/form-data en el campo file",
  linkInvalid: "El enlace de descarga no es válido o expiró",
  created: "Cuenta creada con éxito!",
  uploaded: "Archivos subidos con éxito!",
} as const;

export const MAX_FILES_PER_REQUEST = 10;
export { MAX_PDF_BYTES };
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };
export const MAX_AMOUNT = 999_999_999;

export * from "./bills.lists.ts";

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const positiveInt = (message: string, max = 2_147_483_647) =>
  z.coerce.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, { error: message });

export const ZBillId = z.preprocess(blankToUndefined, positiveInt(billMessages.invalidId));
/** A stored file's generated id (UUID); anything else cannot name a file. */
export const ZFilePath = z
  .string({ error: billMessages.invalidPath })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: billMessages.invalidPath });

const sortField = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.preprocess(blankToUndefined, z.enum(fields, { error: billMessages.invalidSort(fields) }).default(DEFAULT_SORT.orderBy as F[number]));
const direction = z.preprocess(
  (value) => (typeof value === "string" && value.trim() !== "" ? value.trim().toUpperCase() : undefined),
  z.enum(sortDirections, { error: billMessages.invalidDirection }).default(DEFAULT_SORT.direction),
);
const paging = {
  page: z.preprocess(blankToUndefined, positiveInt(billMessages.invalidPage, 1_000_000).default(1)),
  limit: z.preprocess(blankToUndefined, positiveInt(billMessages.invalidLimit, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
  /** The site's clinic (SPEC §7 adds it to most calls); accepted, it scopes nothing. */
  clinic: z.string({ error: billMessages.invalidClinic }).trim().max(60, { error: billMessages.invalidClinic }).optional(),
};

/** GET /files/accounts/{rut}: a patient's bills. */
export const ZPatientBillsInput = z.object(
  { rut: rutSchema, ...paging, orderBy: sortField(patientSortFields), direction },
  { error: billMessages.invalidBody },
);

/** GET /files/filter/users: the staff bill search. */
export const ZStaffBillsInput = z.object(
  {
    param: z.string({ error: billMessages.invalidSearch }).trim().max(100, { error: billMessages.searchTooLong }).optional(),
    ...paging,
    orderBy: sortField(staffSortFields),
    direction,
  },
  { error: billMessages.invalidBody },
);

/** A calendar day "YYYY-MM-DD" (or an ISO timestamp, whose day is kept), stored as midnight UTC. */
export const billDateSchema = z
  .string({ error: billMessages.invalidDate })
  .trim()
  .max(40, { error: billMessages.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}/, { error: billMessages.invalidDate })
  .refine(
    (value) => {
      const day = value.slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
      const date = dayToDate(day);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day && date.getUTCFullYear() >= 1900;
    },
    { error: billMessages.invalidDate },
  )
  .transform((value) => value.slice(0, 10));

/**
 * An amount as typed: digits, or digits with the thousands dot ('21.839' is 21839, issue 33: SPEC §5's "digits only"
 * is about the value, not the keys).
 */
export const typedAmountPattern = /^(\d+|\d{1,3}(\.\d{3})+)$/;

/** The typed amount as whole pesos (its thousands dots removed); call only on text that matched typedAmountPattern. */
export const typedAmountValue = (typed: string): number => Number(typed.trim().replace(/\./g, ""));

/**
 * Amount in whole pesos: digits only in the form (SPEC §5), a number or digit string on the wire. At least $ 1: a bill is
 * something to pay, and Webpay refuses a zero amount (issue 42, point 10; docs/funciones.md).
 */
export const amountSchema = z.preprocess(
  (value) => (typeof value === "string" && typedAmountPattern.test(value.trim()) ? typedAmountValue(value) : value),
  z
    .number({ error: messages.digitsOnly })
    .int({ error: messages.digitsOnly })
    .min(1, { error: billMessages.invalidAmount })
    .max(MAX_AMOUNT, { error: billMessages.invalidAmount }),
);

/** isPaid as a boolean, or the text a multipart form or query string carries. */
export const isPaidSchema = z.preprocess(
  (value) => (value === "true" || value === "1" ? true : value === "false" || value === "0" ? false : value),
  z.boolean({ error: billMessages.invalidStatus }),
);

export const accountCodeSchema = digitsOnlySchema.max(20, { error: billMessages.accountCodeTooLong });

const billFields = {
  rut: rutSchema,
  createAccountIdDate: billDateSchema,
  amount: amountSchema,
  isPaid: isPaidSchema.default(false),
};

/** POST /files/create-account: the bill fields and the clinic it belongs to (SPEC §3 'clinicCode on create'). */
export const ZCreateBillInput = z.object(
  {
    ...billFields,
    accountCode: accountCodeSchema,
    clinicCode: z
      .string({ error: billMessages.invalidClinic })
      .trim()
      .min(1, { error: billMessages.invalidClinic })
      .max(60, { error: billMessages.invalidClinic }),
  },
  { error: billMessages.invalidBody },
);

/** PATCH /files/accountId/{id}: bill data without accountCode (an accountCode sent anyway must equal the stored one). */
export const ZUpdateBillInput = z.object(
  {
    rut: billFields.rut.optional(),
    createAccountIdDate: billFields.createAccountIdDate.optional(),
    amount: billFields.amount.optional(),
    isPaid: isPaidSchema.optional(),
    // Sent back by the edit form; it must be the stored one (the service says so when it is not).
    accountCode: z
      .union([z.string().max(40), z.number().int()], { error: billMessages.accountCodeNotEditable })
      .optional()
      .describe("El número de cuenta guardado: no se puede cambiar"),
  },
  { error: billMessages.invalidBody },
);

/** The bill form of the staff screen (SPEC §5): every field required, RUT valid, digits only for code and amount. */
export const billFormSchema = z.object({
  rut: rutSchema,
  accountCode: accountCodeSchema,
  createAccountIdDate: billDateSchema,
  amount: z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .regex(typedAmountPattern, { error: messages.digitsOnly })
    .refine((typed) => typedAmountValue(typed) >= 1, { error: billMessages.invalidAmount }),
  isPaid: z.enum(["true", "false"], { error: messages.required }),
});
export type BillFormValues = z.input<typeof billFormSchema>;

/** The form's check of a picked file (SPEC §5): PDF only, at most 2 MB. Null when acceptable. */
export function pickedFileProblem(file: { name: string; type: string; size: number }): string | null {
  if (file.type !== "application/pdf") return messages.pdfOnly;
  if (file.size > MAX_PDF_BYTES) return messages.pdfTooLarge(file.name);
  return null;
}
