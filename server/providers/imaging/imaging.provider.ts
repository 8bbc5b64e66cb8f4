/** What the imaging feature needs from a PACS (or RIS), whatever protocol it speaks. */

export interface ImagingStudy {
  studyUid: string;
  accessionNumber: string;
  /** Study day, YYYY-MM-DD. */
  date: string;
  /** Modalities for display (report series such as DOC and SR left out), e.g. "CT" or "CT, MR". */
  modality: string;
  description: string;
  /** Whether the study carries a PDF report the portal can hand out. */
  hasReport: boolean;
}

export interface ImagingProvider {
  /** The patient's studies within the range (YYYY-MM-DD, inclusive), newest first. */
  searchStudies(patientId: string, range: { from: string; to: string }): Promise<ImagingStudy[]>;
  /** The patient's study with that accession number, or null when the patient has none. */
  findStudy(patientId: string, accessionNumber: string): Promise<ImagingStudy | null>;
  /** Address of the study in the image viewer (what the portal frames). */
  viewerUrl(study: ImagingStudy): string;
  /** The study's PDF report, or null when it has none. */
  fetchReport(study: ImagingStudy): Promise<Uint8Array | null>;
}
