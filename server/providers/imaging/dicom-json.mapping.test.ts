import { describe, expect, it } from "vitest";
import { dicomDay, displayModalities, firstValue, toImagingStudies, toImagingStudy, type DicomJsonDataset } from "./dicom-json.mapping.ts";
import { firstMultipartPart } from "./multipart.ts";

const study = (patch: DicomJsonDataset = {}): DicomJsonDataset => ({
  "00080020": { vr: "DA", Value: ["20260115"] },
  "00080050": { vr: "SH", Value: ["ACC1"] },
  "00080061": { vr: "CS", Value: ["CT", "DOC"] },
  "00081030": { vr: "LO", Value: ["TC de tórax"] },
  "0020000D": { vr: "UI", Value: ["1.2.3"] },
  ...patch,
});

describe("DICOM JSON → imaging study", () => {
  it("reads the study's date, accession, description and UID by tag", () => {
    expect(toImagingStudy(study())).toEqual({
      studyUid: "1.2.3",
      accessionNumber: "ACC1",
      date: "2026-01-15",
      modality: "CT",
      description: "TC de tórax",
      hasReport: true,
    });
  });

  it("drops DOC and SR (and other document series) from the modalities shown", () => {
    expect(displayModalities(["MR", "SR", "DOC", "PR", "KO", "mr"])).toEqual(["MR"]);
    expect(toImagingStudy(study({ "00080061": { vr: "CS", Value: ["US", "SR"] } }))?.modality).toBe("US");
    expect(toImagingStudy(study({ "00080061": { vr: "CS", Value: ["CR", "DX"] } }))?.modality).toBe("CR, DX");
  });

  it("knows a study has a PDF report exactly when it lists a DOC series", () => {
    expect(toImagingStudy(study({ "00080061": { vr: "CS", Value: ["US", "SR"] } }))?.hasReport).toBe(false);
    expect(toImagingStudy(study({ "00080061": { vr: "CS", Value: ["MG", "DOC"] } }))?.hasReport).toBe(true);
  });

  it("treats attributes without Value as empty, and leaves out studies missing a UID, accession or date", () => {
    expect(firstValue({ "00081030": { vr: "LO" } }, "00081030")).toBeUndefined();
    expect(toImagingStudy(study({ "00081030": { vr: "LO" } }))?.description).toBe("");
    expect(toImagingStudy(study({ "00080050": { vr: "SH" } }))).toBeNull();
    expect(toImagingStudy(study({ "00080020": { vr: "DA", Value: ["2026"] } }))).toBeNull();
  });

  it("leaves out a study that holds only documents and sorts the rest newest first", () => {
    const studies = toImagingStudies([
      study({ "00080050": { vr: "SH", Value: ["OLD"] }, "00080020": { vr: "DA", Value: ["20250101"] } }),
      study({ "00080050": { vr: "SH", Value: ["NEW"] }, "00080020": { vr: "DA", Value: ["20260301"] } }),
      study({ "00080050": { vr: "SH", Value: ["DOCS"] }, "00080061": { vr: "CS", Value: ["DOC", "SR"] } }),
    ]);
    expect(studies.map((s) => s.accessionNumber)).toEqual(["NEW", "OLD"]);
  });

  it("reads DA dates in both the current and the old dotted form", () => {
    expect(dicomDay("20260115")).toBe("2026-01-15");
    expect(dicomDay("2026.01.15")).toBe("2026-01-15");
    expect(dicomDay("")).toBeNull();
  });
});

describe("WADO-RS multipart bulk data", () => {
  it("takes the first part's bytes out of a multipart/related answer", () => {
    const body = Buffer.concat([
      Buffer.from("--xyz\r\nContent-Type: application/octet-stream\r\n\r\n"),
      Buffer.from("%PDF-1.7 data\r\n"),
      Buffer.from("\r\n--xyz--\r\n"),
    ]);
    const part = firstMultipartPart('multipart/related; type="application/octet-stream"; boundary=xyz', body);
    expect(Buffer.from(part!).toString()).toBe("%PDF-1.7 data\r\n");
  });

  it("accepts bytes sent without an envelope and refuses a broken one", () => {
    expect(Buffer.from(firstMultipartPart("application/pdf", Buffer.from("%PDF-"))!).toString()).toBe("%PDF-");
    expect(firstMultipartPart("multipart/related; boundary=xyz", Buffer.from("--xyz\r\nno end"))).toBeNull();
  });
});
