import { daysBefore, pick, rutBody, seededRandom, seedFrom } from "../results/patient-seed.ts";

// The imaging studies of a patient, derived from the RUT (same RUT → same studies, dated relative to today): several
// modalities, some with an encapsulated PDF report (the study lists DOC among its modalities), some with only a
// structured report (SR) and some without any report; one is older than 12 months.

export const ENCAPSULATED_PDF_SOP_CLASS = "1.2.840.10008.5.1.4.1.1.104.1";
const UID_ROOT = "1.2.826.0.1.3680043.8.498";

export interface MockStudy {
  studyUid: string;
  accessionNumber: string;
  rutBody: string;
  date: Date;
  modality: string;
  description: string;
  /** Modalities in the study as a PACS lists them, report series included (DOC, SR). */
  modalitiesInStudy: string[];
  hasPdfReport: boolean;
  findings: string;
}

const catalog: Record<string, string[]> = {
  CT: ["TC de tórax con contraste", "TC de cerebro sin contraste", "TC de abdomen y pelvis"],
  MR: ["RM de rodilla derecha", "RM de columna lumbar", "RM de cerebro"],
  CR: ["Radiografía de tórax AP y lateral", "Radiografía de pelvis"],
  DX: ["Radiografía de columna lumbar", "Radiografía de mano izquierda"],
  US: ["Ecografía abdominal", "Ecografía tiroidea", "Ecografía renal"],
  MG: ["Mamografía bilateral", "Mamografía de control"],
};

const findings = [
  "Sin hallazgos patológicos significativos.",
  "Hallazgos dentro de límites normales para la edad.",
  "Se sugiere control clínico en 12 meses.",
  "Cambios degenerativos leves.",
];

interface Scenario {
  days: [number, number];
  modality: string;
  report: "pdf" | "sr" | "none";
}

const scenarios: Scenario[] = [
  { days: [7, 40], modality: "CT", report: "pdf" },
  { days: [45, 110], modality: "MR", report: "pdf" },
  { days: [120, 190], modality: "CR", report: "none" },
  { days: [200, 270], modality: "US", report: "pdf" },
  { days: [280, 350], modality: "MG", report: "sr" },
  { days: [400, 520], modality: "DX", report: "pdf" },
];

export function studiesForBody(body: string, now: Date): MockStudy[] {
  const random = seededRandom(seedFrom(`imaging:${body}`));
  return scenarios
    .map((scenario, index): MockStudy => {
      const [min, max] = scenario.days;
      const days = min + Math.floor(random() * (max - min + 1));
      const reportModalities = scenario.report === "pdf" ? ["SR", "DOC"] : scenario.report === "sr" ? ["SR"] : [];
      return {
        studyUid: `${UID_ROOT}.${body}.${index + 1}`,
        accessionNumber: `IM${body}${String(index + 1).padStart(2, "0")}`,
        rutBody: body,
        date: daysBefore(now, days, 9 + Math.floor(random() * 9)),
        modality: scenario.modality,
        description: pick(random, catalog[scenario.modality]!),
        modalitiesInStudy: [scenario.modality, ...reportModalities],
        hasPdfReport: scenario.report === "pdf",
        findings: pick(random, findings),
      };
    })
    .sort((a, b) => b.date.getTime() - a.date.getTime());
}

/** Studies of the patient with that RUT (none for an invalid RUT), newest first. */
export function studiesFor(rut: string, now: Date): MockStudy[] {
  const body = rutBody(rut);
  return body ? studiesForBody(body, now) : [];
}

/** The study with that StudyInstanceUID (the UID carries the RUT body). */
export function studyByUid(studyUid: string, now: Date): MockStudy | undefined {
  const body = new RegExp(`^${UID_ROOT.replaceAll(".", "\\.")}\\.(\\d{7,8})\\.\\d+$`).exec(studyUid)?.[1];
  return body ? studiesForBody(body, now).find((study) => study.studyUid === studyUid) : undefined;
}

export const reportSeriesUid = (study: MockStudy) => `${study.studyUid}.99`;
export const reportInstanceUid = (study: MockStudy) => `${study.studyUid}.99.1`;
export const imageSeriesUid = (study: MockStudy) => `${study.studyUid}.1`;
