import type { ImagingStudy } from "./imaging.provider.ts";

// DICOM JSON (PS3.18 F.2) datasets from QIDO-RS → the portal's imaging studies. Pure functions, tested without HTTP.

export type DicomJsonDataset = Record<string, { vr?: string; Value?: unknown[] } | undefined>;

export const tags = {
  sopClassUid: "00080016",
  sopInstanceUid: "00080018",
  studyDate: "00080020",
  accessionNumber: "00080050",
  modality: "00080060",
  modalitiesInStudy: "00080061",
  studyDescription: "00081030",
  patientId: "00100020",
  studyInstanceUid: "0020000D",
  seriesInstanceUid: "0020000E",
} as const;

export const ENCAPSULATED_PDF_SOP_CLASS = "1.2.840.10008.5.1.4.1.1.104.1";

/** Modalities that are documents, not images: reports (DOC, SR), presentation states, key objects. */
const documentModalities = new Set(["DOC", "SR", "PR", "KO"]);

/** First value of a tag as text; empty attributes have no Value. */
export function firstValue(dataset: DicomJsonDataset, tag: string): string | undefined {
  const value = dataset[tag]?.Value?.[0];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object" && "Alphabetic" in value) return String((value as { Alphabetic: unknown }).Alphabetic);
  return String(value);
}

export function allValues(dataset: DicomJsonDataset, tag: string): string[] {
  return (dataset[tag]?.Value ?? []).filter((value) => value !== null && value !== undefined).map(String);
}

/** DICOM DA (YYYYMMDD; the old YYYY.MM.DD form too) → YYYY-MM-DD, or null. */
export function dicomDay(value: string | undefined): string | null {
  const match = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value?.trim() ?? "");
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** YYYY-MM-DD → YYYYMMDD, for the StudyDate range query. */
export const toDicomDate = (day: string) => day.replaceAll("-", "");

/** The imaging modalities of a study, report and other document series left out. */
export function displayModalities(modalities: string[]): string[] {
  return [...new Set(modalities.map((modality) => modality.trim().toUpperCase()))].filter(
    (modality) => modality && !documentModalities.has(modality),
  );
}

/** One QIDO-RS study → a portal study, or null when it lacks what the portal needs (UID, accession, date). */
export function toImagingStudy(dataset: DicomJsonDataset): ImagingStudy | null {
  const studyUid = firstValue(dataset, tags.studyInstanceUid);
  const accessionNumber = firstValue(dataset, tags.accessionNumber)?.trim();
  const date = dicomDay(firstValue(dataset, tags.studyDate));
  if (!studyUid || !accessionNumber || !date) return null;
  const modalities = allValues(dataset, tags.modalitiesInStudy);
  const shown = displayModalities(modalities);
  return {
    studyUid,
    accessionNumber,
    date,
    modality: shown.join(", "),
    description: firstValue(dataset, tags.studyDescription)?.trim() ?? "",
    // An encapsulated PDF is a DOC series: a study lists DOC among its modalities exactly when it has one.
    hasReport: modalities.some((modality) => modality.trim().toUpperCase() === "DOC"),
  };
}

/** A study with only document series (a report alone) is not an exam the patient can view. */
export function toImagingStudies(datasets: DicomJsonDataset[]): ImagingStudy[] {
  return datasets
    .map(toImagingStudy)
    .filter((study): study is ImagingStudy => study !== null && study.modality !== "")
    .sort((a, b) => b.date.localeCompare(a.date) || b.accessionNumber.localeCompare(a.accessionNumber));
}
