import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { renderReportPdf } from "../results/report-pdf.ts";
import { applyBehaviour, type MockBehaviour } from "../results/behaviour.ts";
import { isoDay, rutBody } from "../results/patient-seed.ts";
import { checkDigitFor, formatRut } from "../scheduling/rut.ts";
import { labOrderByNumber, labOrdersForBody, type MockLabOrder } from "./lab-orders.ts";

// A laboratory information system speaking HL7 FHIR R4 (JSON): exactly the searches the portal's client makes.
//   GET /fhir/Patient?identifier=<system>|<RUT>
//   GET /fhir/DiagnosticReport?subject=Patient/<id>&category=LAB&date=ge<from>&date=le<to>&_count=<n>
//   GET /fhir/DiagnosticReport?subject=Patient/<id>&identifier=<order number>&_include=DiagnosticReport:result
//   GET /fhir/Binary/<id>  (the report PDF of DiagnosticReport.presentedForm, Accept: application/pdf)

export const RUN_IDENTIFIER_SYSTEM = "http://regcivil.cl/Validacion/RUN";
const FHIR_JSON = "application/fhir+json; charset=utf-8";
const LOINC = "http://loinc.org";
const ORDER_IDENTIFIER_SYSTEM = "urn:portal-pacientes:lis:orden";
const UCUM = "http://unitsofmeasure.org";
const INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";
/** Identifies the clinic (its key in the portal's catalogue) whose laboratory ran an order. */
export const CLINIC_IDENTIFIER_SYSTEM = "urn:portal-pacientes:clinica";
const clinicTitles: Record<MockLabOrder["clinicKey"], string> = {
  "hcs-rcr": "Hospital Clínico del Sur",
  "puertomontt-rcr": "Clínica Puerto Montt",
};

export interface FhirMockOptions {
  behaviour?: MockBehaviour;
  now?: () => Date;
}

type Query = Record<string, string | string[] | undefined>;

const values = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const first = (value: string | string[] | undefined) => values(value)[0];

function operationOutcome(code: string, diagnostics: string) {
  return { resourceType: "OperationOutcome", issue: [{ severity: "error", code, diagnostics }] };
}

const patientId = (body: string) => `pac-${body}`;

function patientResource(body: string, rut: string) {
  return {
    resourceType: "Patient",
    id: patientId(body),
    identifier: [
      {
        use: "official",
        type: { coding: [{ system: "https://hl7chile.cl/fhir/ig/clcore/CodeSystem/CSTipoIdentificador", code: "01", display: "RUN" }] },
        system: RUN_IDENTIFIER_SYSTEM,
        value: rut,
      },
    ],
    active: true,
  };
}

const labCategory = [
  { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "LAB", display: "Laboratory" }], text: "Laboratorio" },
];

const performer = (order: MockLabOrder) => [
  {
    type: "Organization",
    identifier: { system: CLINIC_IDENTIFIER_SYSTEM, value: order.clinicKey },
    display: clinicTitles[order.clinicKey],
  },
];

function interpretationOf(value: number, low: number, high: number) {
  const [code, display] = value < low ? ["L", "Low"] : value > high ? ["H", "High"] : ["N", "Normal"];
  return [{ coding: [{ system: INTERPRETATION, code, display }] }];
}

const quantity = (value: number, test: MockLabOrder["results"][number]["test"]) => ({
  value,
  unit: test.unit,
  system: UCUM,
  code: test.ucum,
});

function observationResource(order: MockLabOrder, index: number) {
  const result = order.results[index]!;
  const { test } = result;
  const observation: Record<string, unknown> = {
    resourceType: "Observation",
    id: `obs-${order.orderNumber}-${index + 1}`,
    status: result.status,
    category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
    code: { coding: [{ system: LOINC, code: result.test.loinc, display: result.test.name }], text: result.test.name },
    subject: { reference: `Patient/${patientId(order.rutBody)}` },
    effectiveDateTime: order.issued.toISOString(),
    issued: order.issued.toISOString(),
    performer: performer(order),
    referenceRange: [{ low: quantity(test.low, test), high: quantity(test.high, test) }],
  };
  if (result.status !== "registered") {
    observation.valueQuantity = quantity(result.value, test);
    observation.interpretation = interpretationOf(result.value, test.low, test.high);
  }
  return observation;
}

function diagnosticReportResource(order: MockLabOrder) {
  const report: Record<string, unknown> = {
    resourceType: "DiagnosticReport",
    id: `lab-${order.orderNumber}`,
    identifier: [{ system: ORDER_IDENTIFIER_SYSTEM, value: order.orderNumber }],
    status: order.status,
    category: labCategory,
    code: { text: order.title },
    subject: { reference: `Patient/${patientId(order.rutBody)}` },
    effectiveDateTime: order.issued.toISOString(),
    issued: order.issued.toISOString(),
    performer: performer(order),
    result: order.results.map((_result, index) => ({ reference: `Observation/obs-${order.orderNumber}-${index + 1}` })),
  };
  if (order.hasPdf) {
    report.presentedForm = [
      { contentType: "application/pdf", url: `Binary/informe-${order.orderNumber}`, title: `Informe ${order.orderNumber}` },
    ];
  }
  return report;
}

function searchset(base: string, resources: Array<{ resource: Record<string, unknown>; mode: "match" | "include" }>) {
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: resources.filter((entry) => entry.mode === "match").length,
    entry: resources.map(({ resource, mode }) => ({
      fullUrl: `${base}/${String(resource.resourceType)}/${String(resource.id)}`,
      resource,
      search: { mode },
    })),
  };
}

/** FHIR date search on a day-or-instant value: ge/gt/le/lt/eq prefixes (eq when none). */
export function matchesDate(date: Date, filters: string[]): boolean | "invalid" {
  for (const filter of filters) {
    const match = /^(ge|gt|le|lt|eq)?(\d{4}-\d{2}-\d{2})(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.exec(filter);
    if (!match) return "invalid";
    const prefix = match[1] ?? "eq";
    const day = isoDay(date);
    const bound = match[2]!;
    const ok = { ge: day >= bound, gt: day > bound, le: day <= bound, lt: day < bound, eq: day === bound }[prefix as "ge"];
    if (!ok) return false;
  }
  return true;
}

export const fhirMock: FastifyPluginAsync<FhirMockOptions> = async (app, options) => {
  const now = options.now ?? (() => new Date());
  applyBehaviour(app, options.behaviour ?? "normal", () => ({
    type: FHIR_JSON,
    body: operationOutcome("transient", "Servicio de laboratorio no disponible"),
  }));
  const base = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}${app.prefix}`;
  const fhirJson = (reply: FastifyReply, body: unknown, status = 200) => reply.status(status).type(FHIR_JSON).send(body);

  app.get("/metadata", async (request, reply) =>
    fhirJson(reply, {
      resourceType: "CapabilityStatement",
      status: "active",
      date: "2026-11-27",
      kind: "instance",
      software: { name: "Portal Pacientes – simulador de laboratorio" },
      implementation: { description: "Laboratorio clínico simulado (HL7 FHIR R4)", url: base(request) },
      fhirVersion: "4.0.1",
      format: ["json"],
      rest: [
        {
          mode: "server",
          resource: [
            { type: "Patient", interaction: [{ code: "search-type" }], searchParam: [{ name: "identifier", type: "token" }] },
            {
              type: "DiagnosticReport",
              interaction: [{ code: "search-type" }],
              searchInclude: ["DiagnosticReport:result"],
              searchParam: [
                { name: "subject", type: "reference" },
                { name: "category", type: "token" },
                { name: "date", type: "date" },
                { name: "identifier", type: "token" },
              ],
            },
            { type: "Observation" },
            { type: "Binary", interaction: [{ code: "read" }] },
          ],
        },
      ],
    }),
  );

  app.get("/Patient", async (request, reply) => {
    const identifier = first((request.query as Query).identifier);
    if (!identifier) return fhirJson(reply, operationOutcome("required", "Falta el parámetro identifier"), 400);
    const [system, value] = identifier.includes("|") ? identifier.split("|", 2) : [undefined, identifier];
    const body = value ? rutBody(value) : null;
    const matches =
      body && (!system || system === RUN_IDENTIFIER_SYSTEM) ? [{ resource: patientResource(body, value!), mode: "match" as const }] : [];
    return fhirJson(reply, searchset(base(request), matches));
  });

  app.get("/DiagnosticReport", async (request, reply) => {
    const query = request.query as Query;
    const subject = first(query.subject)?.replace(/^Patient\//, "");
    if (!subject) return fhirJson(reply, operationOutcome("required", "Falta el parámetro subject"), 400);
    const body = /^pac-(\d{7,8})$/.exec(subject)?.[1];
    const category = first(query.category);
    const identifier = first(query.identifier)?.split("|").pop();
    const dates = values(query.date);
    const count = Math.min(Number(first(query._count) ?? 50) || 50, 200);
    const includeResults = values(query._include).includes("DiagnosticReport:result");

    let orders: MockLabOrder[] = [];
    if (body) {
      orders = identifier
        ? [labOrderByNumber(identifier, now())].filter((o): o is MockLabOrder => o?.rutBody === body)
        : labOrdersForBody(body, now());
    }
    if (category && category.split("|").pop() !== "LAB") orders = [];
    const filtered: MockLabOrder[] = [];
    for (const order of orders) {
      const match = matchesDate(order.issued, dates);
      if (match === "invalid") return fhirJson(reply, operationOutcome("invalid", "Parámetro date inválido"), 400);
      if (match) filtered.push(order);
    }
    const entries = filtered
      .slice(0, count)
      .flatMap((order) => [
        { resource: diagnosticReportResource(order), mode: "match" as const },
        ...(includeResults
          ? order.results.map((_r, index) => ({ resource: observationResource(order, index), mode: "include" as const }))
          : []),
      ]);
    return fhirJson(reply, searchset(base(request), entries));
  });

  app.get<{ Params: { id: string } }>("/Binary/:id", async (request, reply) => {
    const orderNumber = /^informe-(\d{9,12})$/.exec(request.params.id)?.[1];
    const order = orderNumber ? labOrderByNumber(orderNumber, now()) : undefined;
    if (!order?.hasPdf) return fhirJson(reply, operationOutcome("not-found", "Binary no encontrado"), 404);
    const pdf = await renderReportPdf({
      title: "Informe de laboratorio",
      subtitle: `${order.title} – Orden ${order.orderNumber}`,
      patientRut: formatRut(`${order.rutBody}-${checkDigitFor(order.rutBody)}`),
      date: isoDay(order.issued),
      rows: order.results.map((result) => [
        result.test.name,
        result.status === "registered"
          ? "En proceso"
          : `${result.value} ${result.test.unit} (${result.status === "final" ? "validado" : "preliminar"})`,
      ]),
      footer: order.results.length ? "Resultados emitidos por el laboratorio clínico." : "La orden aún no tiene prestaciones informadas.",
    });
    // A FHIR client asking for the resource gets it as FHIR JSON (the bytes in base64); anyone else gets the PDF.
    if (/fhir\+json|application\/json/.test(request.headers.accept ?? "")) {
      return fhirJson(reply, {
        resourceType: "Binary",
        id: request.params.id,
        contentType: "application/pdf",
        data: Buffer.from(pdf).toString("base64"),
      });
    }
    return reply
      .type("application/pdf")
      .header("Content-Disposition", `inline; filename="informe-${order.orderNumber}.pdf"`)
      .send(Buffer.from(pdf));
  });
};
