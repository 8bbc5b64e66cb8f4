import { describe, expect, it } from "vitest";
import {
  fhirDay,
  reportPdfUrl,
  statusLabel,
  toLabOrderDetail,
  toLabOrders,
  toLabProcedure,
  type FhirBundle,
  type FhirDiagnosticReport,
  type FhirObservation,
} from "./fhir-lab.mapping.ts";

const base = "https://lis.clinica.cl/fhir";

const report = (patch: Partial<FhirDiagnosticReport>): FhirDiagnosticReport => ({
  resourceType: "DiagnosticReport",
  id: "r1",
  identifier: [{ system: "urn:lis", value: "1001" }],
  status: "final",
  code: { text: "Perfil lipídico" },
  effectiveDateTime: "2026-03-10T12:00:00Z",
  ...patch,
});

const bundle = (...resources: Array<FhirDiagnosticReport | FhirObservation>): FhirBundle => ({
  resourceType: "Bundle",
  entry: resources.map((resource) => ({
    resource,
    search: { mode: resource.resourceType === "Observation" ? "include" : "match" },
  })),
});

describe("FHIR laboratory status labels", () => {
  it("calls final, amended, corrected and appended results 'Validada'", () => {
    for (const status of ["final", "amended", "corrected", "appended"]) expect(statusLabel(status)).toBe("Validada");
  });

  it("calls registered, partial, preliminary, unknown and missing statuses 'Pendiente Validación'", () => {
    for (const status of ["registered", "partial", "preliminary", "unknown", undefined])
      expect(statusLabel(status)).toBe("Pendiente Validación");
  });

  it("hides cancelled and entered-in-error results", () => {
    expect(statusLabel("cancelled")).toBeNull();
    expect(statusLabel("entered-in-error")).toBeNull();
  });
});

describe("FHIR dates", () => {
  it("keeps a plain date and reads a dateTime as the day in Chile", () => {
    expect(fhirDay("2026-03-10")).toBe("2026-03-10");
    // 01:30 UTC on the 11th is still the 10th in Santiago (UTC-3 in March).
    expect(fhirDay("2026-03-11T01:30:00Z")).toBe("2026-03-10");
    expect(fhirDay("2026-03-10T09:00:00-03:00")).toBe("2026-03-10");
    expect(fhirDay("not a date")).toBeNull();
    expect(fhirDay(undefined)).toBeNull();
  });
});

describe("DiagnosticReport → laboratory order", () => {
  it("resolves a relative presentedForm URL against the FHIR base and ignores non-PDF forms", () => {
    expect(reportPdfUrl(report({ presentedForm: [{ contentType: "application/pdf", url: "Binary/abc" }] }), base)).toBe(
      `${base}/Binary/abc`,
    );
    expect(reportPdfUrl(report({ presentedForm: [{ contentType: "text/html", url: "Binary/abc" }] }), base)).toBeNull();
  });

  it("lists orders newest first, without cancelled reports or reports lacking an order number", () => {
    const orders = toLabOrders(
      bundle(
        report({ id: "a", identifier: [{ value: "1" }], effectiveDateTime: "2026-01-05" }),
        report({ id: "b", identifier: [{ value: "2" }], effectiveDateTime: "2026-02-05", status: "preliminary" }),
        report({ id: "c", identifier: [{ value: "3" }], status: "cancelled" }),
        report({ id: "d", identifier: [] }),
      ),
      base,
    );
    const row = { prestacion: "Perfil lipídico", reportUrl: null, clinicKey: null, results: [] };
    expect(orders).toEqual([
      { ...row, orderNumber: "2", date: "2026-02-05", status: "Pendiente Validación" },
      { ...row, orderNumber: "1", date: "2026-01-05", status: "Validada" },
    ]);
  });

  it("gives the order's procedures from the included Observations, in the report's order, each with its label", () => {
    const detail = toLabOrderDetail(
      bundle(
        report({ result: [{ reference: "Observation/o2" }, { reference: "Observation/o1" }, { reference: "Observation/o3" }] }),
        { resourceType: "Observation", id: "o1", status: "final", code: { text: "Colesterol total" } },
        { resourceType: "Observation", id: "o2", status: "preliminary", code: { coding: [{ display: "Triglicéridos" }] } },
        { resourceType: "Observation", id: "o3", status: "entered-in-error", code: { text: "Error" } },
      ),
      base,
    );
    const noValue = { code: null, quantity: null, referenceRange: null, flag: null };
    expect(detail?.procedures).toEqual([
      { ...noValue, name: "Triglicéridos", status: "Pendiente Validación" },
      { ...noValue, name: "Colesterol total", status: "Validada" },
    ]);
  });

  it("reads a numeric result: its code, value in its unit, reference range and H/L/N flag (computed when the laboratory gives none)", () => {
    const glucose = (value: number, interpretation?: FhirObservation["interpretation"]): FhirObservation => ({
      resourceType: "Observation",
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: "2345-7", display: "Glucosa" }], text: "Glucosa" },
      valueQuantity: { value, unit: "mg/dL", code: "mg/dL" },
      referenceRange: [{ low: { value: 70 }, high: { value: 100 } }],
      interpretation,
    });
    const flagged = [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: "H" }] }];
    expect(toLabProcedure(glucose(130, flagged))).toEqual({
      name: "Glucosa",
      status: "Validada",
      code: "2345-7",
      quantity: { value: 130, unit: "mg/dL" },
      referenceRange: { low: 70, high: 100 },
      flag: "H",
    });
    expect(toLabProcedure(glucose(60))?.flag).toBe("L");
    expect(toLabProcedure(glucose(85))?.flag).toBe("N");
  });

  it("names the clinic that ran the order from the performer identifier of the configured system", () => {
    const performer = [{ identifier: { system: "urn:clinicas", value: "hcs-rcr" } }];
    const [order] = toLabOrders(bundle(report({ performer })), { base, clinicSystem: "urn:clinicas" });
    expect(order?.clinicKey).toBe("hcs-rcr");
    expect(toLabOrders(bundle(report({ performer })), { base, clinicSystem: "urn:otro" })[0]?.clinicKey).toBeNull();
  });

  it("gives null procedures to an order with none (the list may be null)", () => {
    expect(toLabOrderDetail(bundle(report({ result: [] })), base)?.procedures).toBeNull();
    expect(toLabOrderDetail(bundle(), base)).toBeNull();
  });
});
