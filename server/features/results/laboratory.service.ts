import { z } from "zod";
import type { LabOrderDetailDto, LabOrderDto } from "../../contract/results.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import type { LabOrder, LabOrderDetail } from "../../providers/lab/lab.provider.ts";
import { reportLink } from "./report-links.ts";
import { resolveRange } from "./result-dates.ts";
import { audit } from "../../lib/audit.ts";
import { actingForPatient, type PatientScope } from "../../lib/access.ts";

// SPEC §7 laboratory calls. The patient is the signed-in user, or a dependent they care for (issue 30), looked up at
// the laboratory by that patient's RUT.

export const orderNotFoundMessage = "Orden no encontrada";

export const ZOrdersQuery = z.object({
  fecha_inicio: z.string().max(20).optional(),
  fecha_termino: z.string().max(20).optional(),
  clinic: z.string().trim().max(60).optional(),
});

export const ZOrderNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,30}$/, orderNotFoundMessage);

async function toDto(deps: AppDeps, scope: PatientScope, order: LabOrder): Promise<LabOrderDto> {
  const urlPDF = order.reportUrl ? await reportLink(deps.config, scope, { kind: "lab", ref: order.orderNumber }) : null;
  return { date: order.date, orderNumber: order.orderNumber, prestacion: order.prestacion, status: order.status, urlPDF };
}

/** GET orders: the patient's orders between fecha_inicio and fecha_termino (dd/mm/yyyy; default 12 months back to today). */
export async function listLabOrders(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<LabOrderDto[]> {
  const scope = await actingForPatient(deps, user, meta, "resultados", "lab.orders.list");
  const query = parseInput(ZOrdersQuery, input);
  const range = resolveRange({ from: query.fecha_inicio, to: query.fecha_termino });
  const orders = await deps.providers.lab.listOrders(scope.patient.rut, range);
  await audit(deps, user, meta, {
    patientId: scope.patient.id,
    action: "lab.orders.list",
    resource: "LabOrder",
    after: { from: range.from, to: range.to, orders: orders.map((order) => order.orderNumber) },
  });
  return Promise.all(orders.map((order) => toDto(deps, scope, order)));
}

/** GET orders/{orderNumber}: one of the patient's orders; another patient's order answers like a missing one. */
export async function getLabOrder(
  deps: AppDeps,
  user: SessionUser,
  rawOrderNumber: unknown,
  meta: RequestMeta,
): Promise<LabOrderDetailDto> {
  const scope = await actingForPatient(deps, user, meta, "resultados", "lab.order.read");
  const orderNumber = parseInput(ZOrderNumber, rawOrderNumber);
  const order: LabOrderDetail | null = await deps.providers.lab.getOrder(scope.patient.rut, orderNumber);
  await audit(deps, user, meta, {
    patientId: scope.patient.id,
    action: "lab.order.read",
    resource: "LabOrder",
    resourceId: orderNumber,
    outcome: order ? "ok" : "failed",
  });
  if (!order) throw new AppError("NOT_FOUND", orderNotFoundMessage);
  return { ...(await toDto(deps, scope, order)), listPrestaciones: order.procedures };
}
