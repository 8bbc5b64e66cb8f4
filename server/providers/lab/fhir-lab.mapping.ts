import { PENDING, VALIDATED, type LabOrder, type LabOrderDetail, type LabProcedure, type ResultStatusLabel } from "./lab.provider.ts";

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
}

export interface FhirObservation {
  resourceType: "Observation";
  id?: string;
  status?: string;
  code?: { text?: string; coding?: Array<{ display?: string }> };
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
export function fhirDay(value: string | undefined, timeZone = "America/Santiago"): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
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

/** One DiagnosticReport → one portal order, or null when it must not be shown (cancelled, no order number or date). */
export function toLabOrder(report: FhirDiagnosticReport, fhirBase: string): LabOrder | null {
  const status = statusLabel(report.status);
  const orderNumber = orderNumberOf(report);
  const date = fhirDay(report.effectiveDateTime ?? report.effectivePeriod?.start ?? report.issued);
  if (!status || !orderNumber || !date) return null;
  return { orderNumber, date, prestacion: codeText(report.code), status, reportUrl: reportPdfUrl(report, fhirBase) };
}

/** Reports of a searchset Bundle (search mode match), newest first. */
export function reportsOf(bundle: FhirBundle): FhirDiagnosticReport[] {
  return (bundle.entry ?? [])
    .filter((entry) => entry.resource?.resourceType === "DiagnosticReport" && entry.search?.mode !== "include")
    .map((entry) => entry.resource as FhirDiagnosticReport);
}

export function toLabOrders(bundle: FhirBundle, fhirBase: string): LabOrder[] {
  return reportsOf(bundle)
    .map((report) => toLabOrder(report, fhirBase))
    .filter((order): order is LabOrder => order !== null)
    .sort((a, b) => b.date.localeCompare(a.date) || b.orderNumber.localeCompare(a.orderNumber));
}

/** The report with its result Observations (from _include) → the order's detail with its procedures. */
export function toLabOrderDetail(bundle: FhirBundle, fhirBase: string): LabOrderDetail | null {
  const [report] = reportsOf(bundle);
  if (!report) return null;
  const order = toLabOrder(report, fhirBase);
  if (!order) return null;
  const observations = new Map<string, FhirObservation>();
  for (const entry of bundle.entry ?? []) {
    if (entry.resource?.resourceType === "Observation" && entry.resource.id) {
      observations.set(`Observation/${entry.resource.id}`, entry.resource as FhirObservation);
    }
  }
  const procedures = (report.result ?? [])
    .map((reference) => (reference.reference ? observations.get(reference.reference) : undefined))
    .map((observation): LabProcedure | null => {
      const status = observation ? statusLabel(observation.status) : null;
      return observation && status ? { name: codeText(observation.code), status } : null;
    })
    .filter((procedure): procedure is LabProcedure => procedure !== null);
  return { ...order, procedures: procedures.length ? procedures : null };
}
