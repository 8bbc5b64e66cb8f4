import { z } from "zod";
import type { AnalyteSeriesDto, LabOrderDetailDto, LabOrderDto, LabProcedureDto } from "../../contract/results.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { AppError } from "../../lib/errors.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { VALIDATED } from "../../contract/results.dto.ts";
import { reportLink } from "./report-links.ts";
import { resolveRange } from "./result-dates.ts";
import { audit } from "../../lib/audit.ts";
import { actingForPatient, type PatientScope } from "../../lib/access.ts";
import type { ReleasedLabOrder, ReleasedProcedure } from "../../lib/release-rules.ts";
import { releasedLabOrder, releasedLabOrders } from "../../lib/released-results.ts";
import { ZActualizar, type ReadOptions } from "../../lib/provider-answer-cache.ts";
import { cachedLabOrders } from "./provider-answers.ts";

// SPEC §7 laboratory calls. The patient is the signed-in user, or a dependent they care for (issue 30), looked up at
// the laboratory by that patient's RUT.

export const orderNotFoundMessage = "Orden no encontrada";

export const ZOrdersQuery = z.object({
  fecha_inicio: z.string().max(20).optional(),
  fecha_termino: z.string().max(20).optional(),
  clinic: z.string().trim().max(60).optional(),
  actualizar: ZActualizar.optional(),
});

export const ZOrderNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,30}$/, orderNotFoundMessage);

export const analyteNotFoundMessage = "No hay resultados de ese examen";

export const ZAnalyteCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]{1,40}$/, analyteNotFoundMessage);

async function toDto(deps: AppDeps, scope: PatientScope, order: ReleasedLabOrder): Promise<LabOrderDto> {
  const urlPDF = order.reportUrl ? await reportLink(deps.config, scope, { kind: "lab", ref: order.orderNumber }) : null;
  return {
    date: order.date,
    orderNumber: order.orderNumber,
    prestacion: order.prestacion,
    status: order.status,
    urlPDF,
    releaseNote: order.releaseNote,
  };
}

function toProcedureDto(procedure: ReleasedProcedure): LabProcedureDto {
  return {
    name: procedure.name,
    status: procedure.status,
    code: procedure.code,
    value: procedure.quantity?.value ?? null,
    unit: procedure.quantity?.unit ?? null,
    low: procedure.referenceRange?.low ?? null,
    high: procedure.referenceRange?.high ?? null,
    flag: procedure.flag,
    releaseNote: procedure.releaseNote,
  };
}

/**
 * GET orders: the patient's orders between fecha_inicio and fecha_termino (dd/mm/yyyy; default 12 months back to
 * today). The laboratory's answer may come from the last RESULTS_CACHE_SECONDS (provider-answers.ts) unless `actualizar`
 * (REST) or `refresh` (tRPC) asks again; the release rules and the audit apply on every read.
 */
export async function listLabOrders(
  deps: AppDeps,
  user: SessionUser,
  input: unknown,
  meta: RequestMeta,
  options: ReadOptions = {},
): Promise<LabOrderDto[]> {
  const scope = await actingForPatient(deps, user, meta, "resultados", "lab.orders.list");
  const query = parseInput(ZOrdersQuery, input);
  const range = resolveRange({ from: query.fecha_inicio, to: query.fecha_termino });
  const refresh = options.refresh ?? query.actualizar ?? false;
  const orders = await releasedLabOrders(deps, scope.patient.rut, range, {
    listOrders: () => cachedLabOrders(deps, scope, range, { refresh }),
  });
  await audit(deps, user, meta, {
    scope,
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
  const order = await releasedLabOrder(deps, scope.patient.rut, orderNumber);
  await audit(deps, user, meta, {
    scope,
    action: "lab.order.read",
    resource: "LabOrder",
    resourceId: orderNumber,
    outcome: order ? "ok" : "failed",
  });
  if (!order) throw new AppError("NOT_FOUND", orderNotFoundMessage);
  return {
    ...(await toDto(deps, scope, order)),
    listPrestaciones: order.results.length ? order.results.map(toProcedureDto) : null,
  };
}

/** How far back 'Ver evolución' looks: every order the laboratory keeps online, in practice. */
const SERIES_YEARS = 10;

/**
 * 'Ver evolución': one analyte's released numeric values across all the patient's orders, oldest first. A code the
 * patient has no released value of answers 404, like an order that is not theirs.
 */
export async function getAnalyteSeries(deps: AppDeps, user: SessionUser, rawCode: unknown, meta: RequestMeta): Promise<AnalyteSeriesDto> {
  const scope = await actingForPatient(deps, user, meta, "resultados", "lab.analyte.series");
  const code = parseInput(ZAnalyteCode, rawCode);
  const to = chileToday();
  const from = `${Number(to.slice(0, 4)) - SERIES_YEARS}${to.slice(4)}`;
  const orders = await releasedLabOrders(deps, scope.patient.rut, { from, to });
  const measured = orders
    .flatMap((order) =>
      order.results
        .filter((procedure) => procedure.code === code && procedure.quantity && procedure.status === VALIDATED)
        .map((procedure) => ({ order, procedure, quantity: procedure.quantity! })),
    )
    .sort((a, b) => a.order.date.localeCompare(b.order.date) || a.order.orderNumber.localeCompare(b.order.orderNumber));
  await audit(deps, user, meta, {
    scope,
    action: "lab.analyte.series",
    resource: "LabObservation",
    resourceId: code,
    outcome: measured.length ? "ok" : "failed",
    after: { orders: measured.map(({ order }) => order.orderNumber) },
  });
  const latest = measured.at(-1);
  if (!latest) throw new AppError("NOT_FOUND", analyteNotFoundMessage);
  return {
    code,
    name: latest.procedure.name,
    unit: latest.quantity.unit,
    points: measured.map(({ order, procedure, quantity }) => ({
      date: order.date,
      orderNumber: order.orderNumber,
      value: quantity.value,
      low: procedure.referenceRange?.low ?? null,
      high: procedure.referenceRange?.high ?? null,
      flag: procedure.flag,
    })),
  };
}
