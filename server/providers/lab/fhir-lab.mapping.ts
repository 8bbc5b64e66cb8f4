import { chileToday } from "../../lib/chile-time.ts";
import { readableUnit } from "../../contract/units.ts";
import {
  PENDING,
  VALIDATED,
  type LabOrder,
  type LabOrderDetail,
  type LabProcedure,
  type ResultFlag,
  type ResultStatusLabel,
} from "./lab.provider.ts";

// HL7 FHIR R4 resources → the portal's laboratory orders. Pure functions, so the rules are tested without HTTP.

export interface FhirReference {
  reference?: string;
}

export interface FhirDiagnosticReport {
  resourceType: "DiagnosticReport";
  id?: string;
  identifier?: Array<{ system?: string; value?: string }>;
  status?: string;
  code?: { text?: string; coding?: Array<{ display?: string }> };
  effectiveDateTime?: string;
  effectivePeriod?: { start?: string };
  issued?: string;
  result?: FhirReference[];
  presentedForm?: Array<{ contentType?: string; url?: string }>;
  performer?: Array<{ identifier?: { system?: string; value?: string } }>;
}

interface FhirQuantity {
  value?: number;
  unit?: string;
  code?: string;
}

export interface FhirObservation {
  resourceType: "Observation";
  id?: string;
  status?: string;
  code?: { text?: string; coding?: Array<{ system?: string; code?: string; display?: string }> };
  valueQuantity?: FhirQuantity;
  referenceRange?: Array<{ low?: FhirQuantity; high?: FhirQuantity }>;
  interpretation?: Array<{ coding?: Array<{ system?: string; code?: string }> }>;
}

/** Where the mapping reads what differs between laboratories. */
export interface FhirLabSettings {
  base: string;
  /** Identifier system of the performing clinic (DiagnosticReport.performer.identifier). */
  clinicSystem?: string;
}

export interface FhirBundle {
  resourceType: "Bundle";
  entry?: Array<{ resource?: { resourceType?: string; id?: string }; search?: { mode?: string } }>;
}

const validatedStatuses = new Set(["final", "amended", "corrected", "appended"]);
const hiddenStatuses = new Set(["cancelled", "entered-in-error"]);

/** FHIR report/observation status → portal label; null for statuses the portal does not show (cancelled, in error). */
export function statusLabel(status: string | undefined): ResultStatusLabel | null {
  if (status && hiddenStatuses.has(status)) return null;
  return status && validatedStatuses.has(status) ? VALIDATED : PENDING;
}

/**
 * The calendar day of a FHIR date or dateTime, in Chile's time zone when it carries a time (a 22:00 result on the
 * 3rd in Santiago is the 4th in UTC).
 */
export function fhirDay(value: string | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return chileToday(date);
}

const codeText = (code: FhirDiagnosticReport["code"]) => code?.text ?? code?.coding?.find((coding) => coding.display)?.display ?? "";

function orderNumberOf(report: FhirDiagnosticReport): string | null {
  return report.identifier?.find((identifier) => identifier.value)?.value ?? null;
}

/** The report PDF's absolute address: presentedForm URLs may be relative to the FHIR base (e.g. Binary/123). */
export function reportPdfUrl(report: FhirDiagnosticReport, fhirBase: string): string | null {
  const form = report.presentedForm?.find((attachment) => attachment.contentType === "application/pdf" && attachment.url);
  if (!form?.url) return null;
  return new URL(form.url, fhirBase.endsWith("/") ? fhirBase : `${fhirBase}/`).toString();
}

const INTERPRETATION_SYSTEM = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";
const flags = new Set<string>(["H", "L", "N"]);

function flagOf(observation: FhirObservation): ResultFlag | null {
  const codings = observation.interpretation?.flatMap((concept) => concept.coding ?? []) ?? [];
  const code = codings.find((coding) => coding.system === INTERPRETATION_SYSTEM && coding.code && flags.has(coding.code))?.code;
  if (code) return code as ResultFlag;
  // No flag from the laboratory: compare with the range it gave.
  const value = observation.valueQuantity?.value;
  const range = observation.referenceRange?.[0];
  if (typeof value !== "number" || !range) return null;
  if (typeof range.low?.value === "number" && value < range.low.value) return "L";
  if (typeof range.high?.value === "number" && value > range.high.value) return "H";
  return "N";
}

const numberOrNull = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** One Observation → one procedure of the order, or null when the portal does not show it (entered in error, cancelled). */
export function toLabProcedure(observation: FhirObservation): LabProcedure | null {
  const status = statusLabel(observation.status);
  if (!status) return null;
  const coding = observation.code?.coding?.find((entry) => entry.code);
  const value = numberOrNull(observation.valueQuantity?.value);
  const range = observation.referenceRange?.[0];
  const low = numberOrNull(range?.low?.value);
  const high = numberOrNull(range?.high?.value);
  return {
    name: codeText(observation.code),
    status,
    code: coding?.code ?? null,
    quantity:
      value === null ? null : { value, unit: readableUnit(observation.valueQuantity?.unit ?? observation.valueQuantity?.code ?? "") },
    referenceRange: low === null && high === null ? null : { low, high },
    flag: value === null ? null : flagOf(observation),
  };
}

function observationsOf(bundle: FhirBundle): Map<string, FhirObservation> {
  const observations = new Map<string, FhirObservation>();
  for (const entry of bundle.entry ?? []) {
    if (entry.resource?.resourceType === "Observation" && entry.resource.id) {
      observations.set(`Observation/${entry.resource.id}`, entry.resource as FhirObservation);
    }
  }
  return observations;
}

function proceduresOf(report: FhirDiagnosticReport, observations: Map<string, FhirObservation>): LabProcedure[] {
  return (report.result ?? [])
    .map((reference) => (reference.reference ? observations.get(reference.reference) : undefined))
    .map((observation) => (observation ? toLabProcedure(observation) : null))
    .filter((procedure): procedure is LabProcedure => procedure !== null);
}

const settingsOf = (settings: FhirLabSettings | string): FhirLabSettings => (typeof settings === "string" ? { base: settings } : settings);

/** One DiagnosticReport → one portal order, or null when it must not be shown (cancelled, no order number or date). */
export function toLabOrder(
  report: FhirDiagnosticReport,
  settings: FhirLabSettings | string,
  observations: Map<string, FhirObservation> = new Map(),
): LabOrder | null {
  const { base, clinicSystem } = settingsOf(settings);
  const status = statusLabel(report.status);
  const orderNumber = orderNumberOf(report);
  const date = fhirDay(report.effectiveDateTime ?? report.effectivePeriod?.start ?? report.issued);
  if (!status || !orderNumber || !date) return null;
  const clinicKey =
    (clinicSystem && report.performer?.find((performer) => performer.identifier?.system === clinicSystem)?.identifier?.value) || null;
  return {
    orderNumber,
    date,
    prestacion: codeText(report.code),
    status,
    reportUrl: reportPdfUrl(report, base),
    clinicKey,
    results: proceduresOf(report, observations),
  };
}

/** Reports of a searchset Bundle (search mode match), newest first. */
export function reportsOf(bundle: FhirBundle): FhirDiagnosticReport[] {
  return (bundle.entry ?? [])
    .filter((entry) => entry.resource?.resourceType === "DiagnosticReport" && entry.search?.mode !== "include")
    .map((entry) => entry.resource as FhirDiagnosticReport);
}

export function toLabOrders(bundle: FhirBundle, settings: FhirLabSettings | string): LabOrder[] {
  const observations = observationsOf(bundle);
  return reportsOf(bundle)
    .map((report) => toLabOrder(report, settings, observations))
    .filter((order): order is LabOrder => order !== null)
    .sort((a, b) => b.date.localeCompare(a.date) || b.orderNumber.localeCompare(a.orderNumber));
}

/** The report with its result Observations (from _include) → the order's detail with its procedures. */
export function toLabOrderDetail(bundle: FhirBundle, settings: FhirLabSettings | string): LabOrderDetail | null {
  const [report] = reportsOf(bundle);
  if (!report) return null;
  const order = toLabOrder(report, settings, observationsOf(bundle));
  if (!order) return null;
  return { ...order, procedures: order.results.length ? order.results : null };
}
