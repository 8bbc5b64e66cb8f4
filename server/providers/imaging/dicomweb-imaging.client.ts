import { malformedAnswer, providerGet, type ProviderRequest } from "../provider-http.ts";
import {
  ENCAPSULATED_PDF_SOP_CLASS,
  firstValue,
  tags,
  toDicomDate,
  toImagingStudies,
  type DicomJsonDataset,
} from "./dicom-json.mapping.ts";
import type { ImagingConfig } from "./imaging.config.ts";
import type { ImagingProvider, ImagingStudy } from "./imaging.provider.ts";
import { firstMultipartPart } from "./multipart.ts";

export const DICOM_JSON = "application/dicom+json";
const PROVIDER_NAME = "imagenología";

const studyFields: Array<[string, string]> = [
  ["includefield", tags.studyDescription],
  ["includefield", tags.modalitiesInStudy],
];

/**
 * QIDO-RS search of /studies that the studies list makes (its one call to the PACS per page); bench/throughput.bench.ts
 * sends the same search to the provider directly.
 */
export const studiesSearchParams = (patientId: string, range: { from: string; to: string }): Array<[string, string]> => [
  ["PatientID", patientId],
  ["StudyDate", `${toDicomDate(range.from)}-${toDicomDate(range.to)}`],
  ...studyFields,
  ["limit", "500"],
];

/**
 * Imaging studies from a PACS over DICOMweb: QIDO-RS study searches by PatientID (the RUT) and StudyDate range; the
 * report is the study's Encapsulated PDF instance, read with WADO-RS bulk data; the viewer address comes from the
 * configured template.
 */
export function createDicomWebImagingClient(config: ImagingConfig): ImagingProvider {
  const base = config.IMAGING_DICOMWEB_BASE_URL.replace(/\/+$/, "");
  const request = (accept: string): ProviderRequest => ({
    providerName: PROVIDER_NAME,
    timeoutMs: config.IMAGING_TIMEOUT_MS,
    credentials: {
      bearerToken: config.IMAGING_DICOMWEB_BEARER_TOKEN,
      username: config.IMAGING_DICOMWEB_USERNAME,
      password: config.IMAGING_DICOMWEB_PASSWORD,
    },
    accept,
  });

  async function qido(path: string, params: Array<[string, string]>): Promise<DicomJsonDataset[]> {
    const url = `${base}${path}?${new URLSearchParams(params).toString()}`;
    const datasets = await providerGet(url, request(DICOM_JSON), async (response) => {
      // Zero matches: 200 [] (Orthanc) or 204 with no body (other servers).
      if (response.status === 204) return [];
      const text = await response.text();
      return text.trim() === "" ? [] : (JSON.parse(text) as unknown);
    });
    if (datasets === null) return [];
    if (!Array.isArray(datasets)) throw malformedAnswer(PROVIDER_NAME, `${path}: la respuesta no es una lista DICOM JSON`);
    return datasets as DicomJsonDataset[];
  }

  return {
    async searchStudies(patientId, range) {
      const datasets = await qido("/studies", studiesSearchParams(patientId, range));
      return toImagingStudies(datasets);
    },

    async findStudy(patientId, accessionNumber) {
      const datasets = await qido("/studies", [["PatientID", patientId], ["AccessionNumber", accessionNumber], ...studyFields]);
      return toImagingStudies(datasets).find((study) => study.accessionNumber === accessionNumber) ?? null;
    },

    viewerUrl(study: ImagingStudy) {
      return config.IMAGING_VIEWER_URL_TEMPLATE.replaceAll("{studyUid}", encodeURIComponent(study.studyUid));
    },

    async fetchReport(study) {
      if (!study.hasReport) return null;
      const uid = encodeURIComponent(study.studyUid);
      const instances = await qido(`/studies/${uid}/instances`, [["SOPClassUID", ENCAPSULATED_PDF_SOP_CLASS]]);
      const report = instances.find((instance) => firstValue(instance, tags.sopClassUid) === ENCAPSULATED_PDF_SOP_CLASS);
      const series = report && firstValue(report, tags.seriesInstanceUid);
      const instance = report && firstValue(report, tags.sopInstanceUid);
      if (!series || !instance) return null;
      const url = `${base}/studies/${uid}/series/${encodeURIComponent(series)}/instances/${encodeURIComponent(instance)}/bulk/${"00420011"}`;
      const pdf = await providerGet(url, request('multipart/related; type="application/octet-stream"'), async (response) =>
        firstMultipartPart(response.headers.get("content-type"), new Uint8Array(await response.arrayBuffer())),
      );
      if (pdf === null) return null;
      if (Buffer.from(pdf.subarray(0, 5)).toString("latin1") !== "%PDF-") throw malformedAnswer(PROVIDER_NAME, "el informe no es un PDF");
      return pdf;
    },
  };
}
