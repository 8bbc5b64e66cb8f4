import { randomBytes } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { html, htmlContentType, renderPage } from "../html.ts";
import { applyBehaviour, type MockBehaviour } from "../results/behaviour.ts";
import { renderReportPdf } from "../results/report-pdf.ts";
import { frameAncestorsPolicy } from "../scheduling/scheduling-mock.ts";
import { checkDigitFor, formatRut } from "../scheduling/rut.ts";
import {
  ENCAPSULATED_PDF_SOP_CLASS,
  imageSeriesUid,
  reportInstanceUid,
  reportSeriesUid,
  studiesFor,
  studyByUid,
  type MockStudy,
} from "./studies.ts";

// A PACS speaking DICOMweb, as Orthanc's DICOMweb plugin answers the portal's calls:
//   GET /dicom-web/studies?PatientID=<RUT>&StudyDate=YYYYMMDD-YYYYMMDD[&AccessionNumber=][&limit=&offset=]  (QIDO-RS)
//   GET /dicom-web/studies/<uid>/instances?SOPClassUID=1.2.840.10008.5.1.4.1.1.104.1   (the encapsulated PDF report)
//   GET /dicom-web/studies/<uid>/series/<s>/instances/<i>/bulk/00420011           (its bytes, multipart/related)
//   GET /dicom-web/viewer?StudyInstanceUIDs=<uid>                                  (a simple viewer page per study)

const DICOM_JSON = "application/dicom+json";
const CT_IMAGE_SOP_CLASS = "1.2.840.10008.5.1.4.1.1.2";

export interface DicomWebMockOptions {
  behaviour?: MockBehaviour;
  now?: () => Date;
  /** Origins allowed to frame the viewer page, in addition to the local portal dev origins. */
  frameAncestors?: string[];
}

type Query = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const dicomDate = (date: Date) => date.toISOString().slice(0, 10).replaceAll("-", "");
const dicomTime = (date: Date) => date.toISOString().slice(11, 19).replaceAll(":", "");

function studyDataset(study: MockStudy) {
  return {
    "00080005": { vr: "CS", Value: ["ISO_IR 192"] },
    "00080020": { vr: "DA", Value: [dicomDate(study.date)] },
    "00080030": { vr: "TM", Value: [dicomTime(study.date)] },
    "00080050": { vr: "SH", Value: [study.accessionNumber] },
    "00080061": { vr: "CS", Value: study.modalitiesInStudy },
    // Empty attributes carry no Value, as in real DICOM JSON.
    "00080090": { vr: "PN" },
    "00081030": { vr: "LO", Value: [study.description] },
    "00100020": { vr: "LO", Value: [`${study.rutBody}-${checkDigitFor(study.rutBody)}`] },
    "0020000D": { vr: "UI", Value: [study.studyUid] },
    "00201206": { vr: "IS", Value: [study.modalitiesInStudy.length] },
  };
}

/** DICOM range matching on StudyDate: YYYYMMDD, YYYYMMDD-YYYYMMDD, YYYYMMDD- or -YYYYMMDD. */
export function matchesStudyDate(date: Date, filter: string | undefined): boolean | "invalid" {
  if (!filter) return true;
  const match = /^(\d{8})?(-)?(\d{8})?$/.exec(filter);
  if (!match || (!match[1] && !match[3])) return "invalid";
  const day = dicomDate(date);
  if (!match[2]) return day === match[1];
  return (!match[1] || day >= match[1]) && (!match[3] || day <= match[3]);
}

export const dicomWebMock: FastifyPluginAsync<DicomWebMockOptions> = async (app, options) => {
  const now = options.now ?? (() => new Date());
  const contentSecurityPolicy = frameAncestorsPolicy(options.frameAncestors);
  applyBehaviour(app, options.behaviour ?? "normal", () => ({ type: "text/plain", body: "PACS no disponible" }));

  app.get("/studies", async (request, reply) => {
    const query = request.query as Query;
    const patientId = first(query.PatientID);
    // A PACS answers every study to a query without PatientID; the mock has no "every patient", so it asks for one.
    if (!patientId) return reply.status(400).type("text/plain").send("PatientID es obligatorio en este simulador");
    const accession = first(query.AccessionNumber);
    const studyUid = first(query.StudyInstanceUID);
    const offset = Math.max(0, Number(first(query.offset) ?? 0) || 0);
    const limit = Math.min(Math.max(1, Number(first(query.limit) ?? 100) || 100), 1000);
    const matches: MockStudy[] = [];
    for (const study of studiesFor(patientId, now())) {
      const dateMatch = matchesStudyDate(study.date, first(query.StudyDate));
      if (dateMatch === "invalid") return reply.status(400).type("text/plain").send("StudyDate inválido");
      if (!dateMatch) continue;
      if (accession && study.accessionNumber !== accession) continue;
      if (studyUid && study.studyUid !== studyUid) continue;
      matches.push(study);
    }
    return reply.type(DICOM_JSON).send(matches.slice(offset, offset + limit).map(studyDataset));
  });

  app.get<{ Params: { studyUid: string } }>("/studies/:studyUid/instances", async (request, reply) => {
    const study = studyByUid(request.params.studyUid, now());
    if (!study) return reply.status(404).type("text/plain").send("Estudio no encontrado");
    const sopClass = first((request.query as Query).SOPClassUID);
    const instances = [
      { sopClass: CT_IMAGE_SOP_CLASS, series: imageSeriesUid(study), instance: `${imageSeriesUid(study)}.1`, modality: study.modality },
      ...(study.hasPdfReport
        ? [{ sopClass: ENCAPSULATED_PDF_SOP_CLASS, series: reportSeriesUid(study), instance: reportInstanceUid(study), modality: "DOC" }]
        : []),
    ].filter((instance) => !sopClass || instance.sopClass === sopClass);
    return reply.type(DICOM_JSON).send(
      instances.map((instance) => ({
        "00080016": { vr: "UI", Value: [instance.sopClass] },
        "00080018": { vr: "UI", Value: [instance.instance] },
        "00080060": { vr: "CS", Value: [instance.modality] },
        "0020000D": { vr: "UI", Value: [study.studyUid] },
        "0020000E": { vr: "UI", Value: [instance.series] },
      })),
    );
  });

  app.get<{ Params: { studyUid: string; seriesUid: string; instanceUid: string } }>(
    "/studies/:studyUid/series/:seriesUid/instances/:instanceUid/bulk/00420011",
    async (request, reply) => {
      const study = studyByUid(request.params.studyUid, now());
      if (
        !study?.hasPdfReport ||
        request.params.seriesUid !== reportSeriesUid(study) ||
        request.params.instanceUid !== reportInstanceUid(study)
      ) {
        return reply.status(404).type("text/plain").send("Instancia no encontrada");
      }
      const pdf = await renderReportPdf({
        title: "Informe de imagenología",
        subtitle: `${study.description} – Acceso ${study.accessionNumber}`,
        patientRut: formatRut(`${study.rutBody}-${checkDigitFor(study.rutBody)}`),
        date: study.date.toISOString().slice(0, 10),
        rows: [
          ["Modalidad", study.modality],
          ["Estudio", study.description],
          ["Impresión", study.findings],
        ],
        footer: "Informe firmado electrónicamente por el médico radiólogo.",
      });
      const boundary = randomBytes(12).toString("hex");
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`),
        Buffer.from(pdf),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return reply.type(`multipart/related; type="application/octet-stream"; boundary=${boundary}`).send(body);
    },
  );

  app.get("/viewer", async (request, reply) => {
    const study = studyByUid(first((request.query as Query).StudyInstanceUIDs) ?? "", now());
    reply.header("Content-Security-Policy", contentSecurityPolicy).type(htmlContentType);
    if (!study) return reply.status(404).send(renderPage("Visor – estudio no encontrado", html`<h1>Estudio no encontrado</h1>`));
    return reply.send(
      renderPage(
        `Visor – ${study.description}`,
        html`<h1>Visor de imágenes</h1>
          <p class="muted">
            ${study.description} · ${study.modality} · ${study.date.toISOString().slice(0, 10)} · Acceso ${study.accessionNumber}
          </p>
          <div class="card" style="background:#000;text-align:center">
            <svg role="img" aria-label="Imagen ${study.modality}" width="320" height="320" viewBox="0 0 320 320">
              <defs>
                <radialGradient id="g">
                  <stop offset="0" stop-color="#ddd" />
                  <stop offset="1" stop-color="#111" />
                </radialGradient>
              </defs>
              <ellipse cx="160" cy="160" rx="120" ry="140" fill="url(#g)" />
              <text x="10" y="20" fill="#fff" font-size="12">${study.modality} ${study.studyUid}</text>
            </svg>
          </div>`,
      ),
    );
  });
};
