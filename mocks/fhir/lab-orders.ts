import { daysBefore, pick, rutBody, seededRandom, seedFrom } from "../results/patient-seed.ts";

// The laboratory orders of a patient, derived from the RUT (same RUT → same orders, dated relative to today).
// Every patient gets: a validated order, a pending one, a mixed one (some results final, some not), an order with no
// procedures yet, an amended one, a cancelled one (the portal hides it) and orders older than 12 months.

export type ReportStatus = "registered" | "partial" | "preliminary" | "final" | "amended" | "cancelled";
export type ResultStatus = "registered" | "preliminary" | "final";

export interface LabTest {
  loinc: string;
  name: string;
  /** The unit as the laboratory prints it. */
  unit: string;
  /** The same unit as a UCUM code (http://unitsofmeasure.org). */
  ucum: string;
  low: number;
  high: number;
}

export interface MockLabResult {
  test: LabTest;
  status: ResultStatus;
  value: number;
}

/** Clinics whose laboratory ran the order (DiagnosticReport.performer). */
export const PERFORMING_CLINICS = ["hcs-rcr", "puertomontt-rcr"] as const;

export interface MockLabOrder {
  orderNumber: string;
  rutBody: string;
  issued: Date;
  title: string;
  status: ReportStatus;
  results: MockLabResult[];
  hasPdf: boolean;
  clinicKey: (typeof PERFORMING_CLINICS)[number];
}

// The first four are measured in every order that has that many procedures, so each patient's values of them form a
// line over time (the trends of issue 31); the others are drawn at random.
const repeatedTests: LabTest[] = [
  { loinc: "2345-7", name: "Glucosa", unit: "mg/dL", ucum: "mg/dL", low: 70, high: 100 },
  { loinc: "2093-3", name: "Colesterol total", unit: "mg/dL", ucum: "mg/dL", low: 120, high: 200 },
  { loinc: "718-7", name: "Hemoglobina", unit: "g/dL", ucum: "g/dL", low: 12, high: 16 },
  { loinc: "2160-0", name: "Creatinina", unit: "mg/dL", ucum: "mg/dL", low: 0.6, high: 1.2 },
];

const otherTests: LabTest[] = [
  { loinc: "6690-2", name: "Recuento de leucocitos", unit: "10^3/µL", ucum: "10*3/uL", low: 4.5, high: 11 },
  { loinc: "777-3", name: "Recuento de plaquetas", unit: "10^3/µL", ucum: "10*3/uL", low: 150, high: 400 },
  { loinc: "4548-4", name: "Hemoglobina glicosilada", unit: "%", ucum: "%", low: 4, high: 5.7 },
  { loinc: "2571-8", name: "Triglicéridos", unit: "mg/dL", ucum: "mg/dL", low: 50, high: 150 },
  { loinc: "3016-3", name: "TSH", unit: "µUI/mL", ucum: "u[IU]/mL", low: 0.4, high: 4 },
  { loinc: "3024-7", name: "T4 libre", unit: "ng/dL", ucum: "ng/dL", low: 0.8, high: 1.8 },
  { loinc: "1742-6", name: "Transaminasa GPT", unit: "U/L", ucum: "U/L", low: 7, high: 56 },
  { loinc: "2276-4", name: "Ferritina", unit: "ng/mL", ucum: "ng/mL", low: 20, high: 250 },
  { loinc: "2951-2", name: "Sodio plasmático", unit: "mmol/L", ucum: "mmol/L", low: 135, high: 145 },
  { loinc: "2823-3", name: "Potasio plasmático", unit: "mmol/L", ucum: "mmol/L", low: 3.5, high: 5.1 },
  { loinc: "62292-8", name: "Vitamina D (25-OH)", unit: "ng/mL", ucum: "ng/mL", low: 30, high: 100 },
  { loinc: "2857-1", name: "Antígeno prostático específico", unit: "ng/mL", ucum: "ng/mL", low: 0, high: 4 },
];

const panels = [
  "Hemograma completo",
  "Perfil bioquímico",
  "Perfil lipídico",
  "Perfil tiroideo",
  "Perfil hepático",
  "Electrolitos plasmáticos",
  "Orina completa",
  "Control diabetes",
];

interface Scenario {
  /** Days before today: [min, max]. */
  days: [number, number];
  status: ReportStatus;
  /** Result statuses, one per procedure (empty: an order whose procedure list is still empty). */
  results: ResultStatus[];
  hasPdf: boolean;
}

const scenarios: Scenario[] = [
  { days: [4, 25], status: "final", results: ["final", "final", "final", "final", "final"], hasPdf: true },
  { days: [1, 3], status: "registered", results: ["registered", "preliminary"], hasPdf: false },
  { days: [30, 90], status: "partial", results: ["final", "preliminary", "final"], hasPdf: true },
  { days: [100, 160], status: "final", results: [], hasPdf: true },
  { days: [170, 240], status: "amended", results: ["final", "final", "final", "final"], hasPdf: true },
  { days: [120, 300], status: "cancelled", results: ["final"], hasPdf: false },
  { days: [250, 340], status: "final", results: ["final", "final", "final", "final"], hasPdf: true },
  { days: [380, 450], status: "final", results: ["final", "final", "final", "final"], hasPdf: true },
  { days: [460, 530], status: "final", results: ["final", "final", "final", "final"], hasPdf: true },
];

/** Every laboratory order of the patient with that RUT (none for an invalid RUT), newest first. */
export function labOrdersFor(rut: string, now: Date): MockLabOrder[] {
  const body = rutBody(rut);
  return body ? labOrdersForBody(body, now) : [];
}

export function labOrdersForBody(body: string, now: Date): MockLabOrder[] {
  const random = seededRandom(seedFrom(`lab:${body}`));
  const orders = scenarios.map((scenario, index): MockLabOrder => {
    const [min, max] = scenario.days;
    const days = min + Math.floor(random() * (max - min + 1));
    const chosen = new Set<LabTest>(repeatedTests.slice(0, scenario.results.length));
    while (chosen.size < scenario.results.length) chosen.add(pick(random, otherTests));
    const results = [...chosen].map((test, k) => ({
      test,
      status: scenario.results[k]!,
      value: Math.round((test.low + (test.high - test.low) * (random() * 1.3 - 0.1)) * 10) / 10,
    }));
    return {
      orderNumber: `${body}${String(index + 1).padStart(2, "0")}`,
      rutBody: body,
      issued: daysBefore(now, days, 8 + Math.floor(random() * 10)),
      title: pick(random, panels),
      status: scenario.status,
      results,
      hasPdf: scenario.hasPdf,
      clinicKey: PERFORMING_CLINICS[index % 3 === 2 ? 1 : 0],
    };
  });
  return orders.sort((a, b) => b.issued.getTime() - a.issued.getTime());
}

/** The order with that number, for whichever patient it belongs to (the number carries the RUT body). */
export function labOrderByNumber(orderNumber: string, now: Date): MockLabOrder | undefined {
  const body = orderNumber.slice(0, -2);
  if (!/^\d{7,8}$/.test(body)) return undefined;
  return labOrdersForBody(body, now).find((order) => order.orderNumber === orderNumber);
}
