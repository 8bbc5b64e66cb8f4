import { z } from "zod";
import { dayRangeInOrder, dayRangeMessages } from "./day-range.ts";
import { pagingShape } from "./params.ts";
import {
  ACCESS_SCOPES,
  RIGHTS_REQUEST_KINDS,
  RIGHTS_REQUEST_STATUSES,
  RECTIFIABLE_FIELDS,
  rightsRequestMessages,
  EXPORT_STATUSES,
} from "./data-rights.ts";

// The patient's rights over their data (issue 28, Law 21.719): 'Accesos a mis datos', 'Solicitudes' and 'Descargar mis
// datos', shared by the screens, the REST routes and tRPC.

export {
  RIGHTS_REQUEST_DEADLINE_DAYS,
  EXPORT_OFFERED_HOURS,
  EXPORT_MIN_INTERVAL_MINUTES,
  rightsRequestKindLabels,
  rightsRequestStatusLabels,
  RECTIFIABLE_FIELDS,
  isApplicableField,
  requestFieldLabels,
  rightsRequestMessages,
  dataExportMessages,
  type AccessScope,
} from "./data-rights.ts";

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const day = z
  .string({ error: "La fecha es inválida" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "La fecha es inválida" })
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "La fecha es inválida" });

const accessFilters = {
  /** Days in Chile's time, both included (YYYY-MM-DD). */
  from: z.preprocess(blankToUndefined, day.optional()),
  to: z.preprocess(blankToUndefined, day.optional()),
  scope: z.preprocess(
    blankToUndefined,
    z
      .enum(ACCESS_SCOPES, { error: "Filtro inválido" })
      .optional()
      .describe("others: solo lo que hicieron otras personas; all: todo. Sin él: others si en esos días hay accesos de otras personas"),
  ),
  ...pagingShape,
};

/** The id of a patient in an address (REST /admin/users/:userId/accesses). */
export const ZAccessesUserId = z.coerce
  .number({ error: "Usuario inválido" })
  .int({ error: "Usuario inválido" })
  .positive({ error: "Usuario inválido" })
  .max(2_147_483_647, { error: "Usuario inválido" });

/** 'Accesos a mis datos' of the signed-in patient. */
export const ZAccessFilters = z.object(accessFilters);
export const ZOwnAccessesInput = ZAccessFilters.refine(dayRangeInOrder, { error: dayRangeMessages.fromAfterTo, path: ["to"] });

/** The same view of one patient, for staff (from the user's edit page). */
export const ZPatientAccessesInput = z
  .object({ userId: ZAccessesUserId, ...accessFilters })
  .refine(dayRangeInOrder, { error: dayRangeMessages.fromAfterTo, path: ["to"] });

/** Who acted, as the patient reads it: themself, staff by name and role, a caregiver, or the clinic's systems. */
export const ZAccessActor = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("self") }),
  z.object({ kind: z.literal("staff"), name: z.string(), role: z.enum(["Administrador", "Ejecutivo"]) }),
  z.object({ kind: z.literal("caregiver"), name: z.string() }),
  z.object({ kind: z.literal("system") }),
]);
export type AccessActor = z.infer<typeof ZAccessActor>;

export const ZAccessEntry = z.object({
  id: z.number().int(),
  at: z.string().describe("Instante ISO"),
  actor: ZAccessActor,
  action: z.string().describe("Código de la acción (la pantalla la muestra en español)"),
  resource: z.string(),
  outcome: z.string().describe("ok, denied o failed"),
});

export const ZAccessPage = z.object({
  entries: z.array(ZAccessEntry),
  page: z.number().int(),
  total: z.number().int(),
  scope: z.enum(ACCESS_SCOPES).describe("El filtro aplicado (el pedido, o el que corresponde cuando no se pidió)"),
  othersTotal: z.number().int().describe("Accesos de otras personas en esos días"),
  patient: z.object({ name: z.string(), rut: z.string() }).optional().describe("Para el personal: el paciente cuyos accesos se listan"),
});
export type AccessPage = z.infer<typeof ZAccessPage>;

// ---- Solicitudes ----

const details = z.string().trim().max(1000, { error: rightsRequestMessages.detailsTooLong }).default("");

export const ZCreateRightsRequest = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("rectification"),
    field: z.enum(RECTIFIABLE_FIELDS, { error: rightsRequestMessages.fieldRequired }),
    correctValue: z
      .string({ error: rightsRequestMessages.valueRequired })
      .trim()
      .min(1, { error: rightsRequestMessages.valueRequired })
      .max(200, { error: rightsRequestMessages.valueTooLong }),
    details,
  }),
  z.object({ kind: z.literal("email_opposition"), details }),
  z.object({ kind: z.literal("account_closure"), details }),
]);

export const ZRightsRequestDto = z.object({
  id: z.number().int(),
  kind: z.enum(RIGHTS_REQUEST_KINDS),
  field: z.string().nullable(),
  correctValue: z.string().nullable(),
  details: z.string(),
  status: z.enum(RIGHTS_REQUEST_STATUSES),
  rejectionReason: z.string().nullable(),
  resolution: z.string().nullable().describe("Qué se hizo al resolverla: el dato corregido o la nota del personal"),
  resolvedAt: z.string().nullable().describe("Instante ISO en que se resolvió o rechazó"),
  receivedAt: z.string().describe("Instante ISO"),
  dueAt: z.string().describe("Instante ISO del plazo legal (30 días corridos)"),
  overdue: z.boolean().describe("Vencido sin resolver"),
  patient: z.object({ id: z.number().int(), rut: z.string(), name: z.string() }),
});
export type RightsRequestDto = z.infer<typeof ZRightsRequestDto>;

export const ZStaffRightsRequestsInput = z.object({
  status: z.preprocess(blankToUndefined, z.enum(RIGHTS_REQUEST_STATUSES, { error: "Estado inválido" }).optional()),
  ...pagingShape,
});
export const ZRightsRequestPage = z.object({ requests: z.array(ZRightsRequestDto), page: z.number().int(), total: z.number().int() });
export type RightsRequestPage = z.infer<typeof ZRightsRequestPage>;

export const ZRightsRequestId = z.coerce
  .number({ error: rightsRequestMessages.notFound })
  .int({ error: rightsRequestMessages.notFound })
  .positive({ error: rightsRequestMessages.notFound })
  .max(2_147_483_647, { error: rightsRequestMessages.notFound });

const rightsRequestChange = {
  status: z.enum(["in_progress", "resolved", "rejected"], { error: "Estado inválido" }),
  reason: z
    .string()
    .trim()
    .max(1000, { error: rightsRequestMessages.detailsTooLong })
    .optional()
    .describe("Rechazo: el motivo. Rectificación de 'Otro dato' resuelta: qué se corrigió y dónde"),
  applyChange: z
    .boolean({ error: rightsRequestMessages.confirmChange })
    .optional()
    .describe("Rectificación del RUT o de un dato personal resuelta: el personal confirma que se aplica el valor pedido"),
};
const rejectionHasReason = (input: { status: string; reason?: string }) => input.status !== "rejected" || Boolean(input.reason);
const reasonRequired = () => ({ error: rightsRequestMessages.reasonRequired, path: ["reason"] });

/** The body of PATCH /admin/rights-requests/:id (the id comes in the address). */
export const ZRightsRequestChange = z.object(rightsRequestChange).refine(rejectionHasReason, reasonRequired());
export const ZUpdateRightsRequest = z.object({ id: ZRightsRequestId, ...rightsRequestChange }).refine(rejectionHasReason, reasonRequired());

// ---- Descargar mis datos ----

export const ZDataExportDto = z.object({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** When the patient may ask for another one (one per hour). */
  nextAllowedAt: z.string(),
  /** A signed link (10 minutes) to the ZIP, when ready. */
  downloadUrl: z.string().nullable(),
});
export type DataExportDto = z.infer<typeof ZDataExportDto>;
export const ZDataExportState = z.object({ latest: ZDataExportDto.nullable() });
export type DataExportState = z.infer<typeof ZDataExportState>;

/** The id of a data export in its download address. */
export const ZExportId = z
  .string()
  .regex(/^[\w-]{16,64}$/)
  .describe("Id de la descarga");
