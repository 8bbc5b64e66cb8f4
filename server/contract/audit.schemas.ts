import { z } from "zod";
import { dayRangeInOrder, dayRangeMessages } from "./day-range.ts";
import { pagingShape } from "./params.ts";
import { rutSchema } from "./validation.ts";

// The audit trail as admins read it ('Auditoría', /admin/audit): filters, page and rows, shared by the screen, the
// REST routes (GET /admin/audit/events, /admin/audit/export.csv) and tRPC (audit.list).

/** Every action the features write (server/lib/audit.ts checks this list against its AuditAction type). */
export const AUDIT_ACTIONS = [
  "login.patient",
  "login.staff",
  "login.second-factor",
  "login.claveunica",
  "logout",
  "password.reset-request",
  "password.reset",
  "second-factor.enrol",
  "session.end",
  "session.end-others",
  "account.update",
  "account.password-change",
  "terms.accept",
  "user.list",
  "user.read",
  "user.update",
  "user.create",
  "user.password-reset",
  "user.password-reset-link",
  "user.privileges.read",
  "user.privileges.update",
  "user.create.cli",
  "user.reset.cli",
  "user.second-factor-reset",
  "clinic.list",
  "appointment.list",
  "appointment.calendar",
  "appointment.cancel",
  "appointment.confirm",
  "lab.orders.list",
  "lab.order.read",
  "lab.analyte.series",
  "imaging.studies.list",
  "imaging.viewer.open",
  "imaging.report.link",
  "results.report.read",
  "results.report.mail",
  "bill.list",
  "bill.read",
  "bill.create",
  "bill.update",
  "bill.delete",
  "bill.files.list",
  "bill.files.upload",
  "bill.file.delete",
  "bill.file.link",
  "bill.file.download",
  "bill.status",
  "payment.start",
  "payment.commit",
  "payment.timeout",
  "payment.reconcile",
  "payment.status",
  "payment.history",
  "payment.read",
  "payment.receipt.link",
  "payment.receipt.download",
  "payment.refund",
  "audit.list",
  "audit.export",
  "mail.queue.read",
  "data.accesses.list",
  "rights.request.create",
  "rights.request.list",
  "rights.request.update",
  "account.close",
  "data.export.request",
  "data.export.prepare",
  "data.export.download",
  "caregiver.list",
  "caregiver.create",
  "caregiver.renew",
  "caregiver.revoke",
  "scheduling.open",
] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];

export const auditMessages = {
  invalidAction: "Acción inválida",
  invalidDate: "La fecha es inválida",
  rangeOrder: dayRangeMessages.fromAfterTo,
  none: "No hay eventos para estos filtros",
  listFailed: "No fue posible cargar la auditoría, por favor intente más tarde",
  exportFailed: "No fue posible exportar la auditoría, por favor intente más tarde",
} as const;

/** Rows one CSV export carries at most; the file says so when the filters match more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;
/** A list's total is counted up to this many rows (an exact count of a large trail on every page is not worth it). */
export const AUDIT_COUNT_CAP = 10_000;
export const AUDIT_PAGE_SIZE = 25;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const day = z.string({ error: auditMessages.invalidDate }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: auditMessages.invalidDate });

const filtersShape = {
  /** RUT of who acted. */
  actor: optional(rutSchema),
  /** RUT of the patient whose data it was. */
  patient: optional(rutSchema),
  action: optional(z.enum(AUDIT_ACTIONS, { error: auditMessages.invalidAction })),
  /** Days in Chile's time, both included (YYYY-MM-DD). */
  from: optional(day.refine((value) => !Number.isNaN(Date.parse(value)), { error: auditMessages.invalidDate })),
  to: optional(day.refine((value) => !Number.isNaN(Date.parse(value)), { error: auditMessages.invalidDate })),
};

export const ZAuditFilters = z.object(filtersShape).refine(dayRangeInOrder, { error: auditMessages.rangeOrder, path: ["to"] });
export type AuditFilters = z.output<typeof ZAuditFilters>;

export const ZAuditListInput = z
  .object({ ...filtersShape, ...pagingShape })
  .refine(dayRangeInOrder, { error: auditMessages.rangeOrder, path: ["to"] });

export const ZAuditPerson = z.object({ rut: z.string(), name: z.string() });

export const ZAuditEventDto = z.object({
  id: z.number().int(),
  createdAt: z.string().describe("Instante ISO"),
  action: z.string(),
  resource: z.string(),
  resourceId: z.string().nullable(),
  outcome: z.string().describe("ok, denied o failed"),
  actorRole: z.number().int().nullable(),
  actor: ZAuditPerson.nullable().describe("Quién actuó"),
  patient: ZAuditPerson.nullable().describe("El paciente cuyos datos eran"),
  ip: z.string().nullable(),
  details: z.string().nullable().describe('Antes/después de la fila como JSON ({"antes":…,"despues":…})'),
});
export type AuditEventDto = z.infer<typeof ZAuditEventDto>;

export const ZAuditPage = z.object({
  events: z.array(ZAuditEventDto),
  page: z.number().int(),
  total: z.number().int().describe(`Filas que cumplen los filtros, contadas hasta ${AUDIT_COUNT_CAP}`),
  totalCapped: z.boolean().describe("Hay al menos ese número de filas"),
});
export type AuditPage = z.infer<typeof ZAuditPage>;
