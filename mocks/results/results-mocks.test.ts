import { describe, expect, it } from "vitest";
import { buildMocksApp } from "../app.ts";
import { MailStore } from "../mail/mail-store.ts";
import { labOrdersFor } from "../fhir/lab-orders.ts";
import { studiesFor } from "../dicom-web/studies.ts";
import { checkDigitFor } from "../scheduling/rut.ts";

const now = new Date("2026-06-15T12:00:00Z");
// The 24 seeded patients (server/db/seed.ts) and the demo patient.
const seededRuts = [
  "12345678-5",
  ...Array.from({ length: 24 }, (_, i) => {
    const body = String(17_000_000 + i * 104_729);
    return `${body}-${checkDigitFor(body)}`;
  }),
];

describe("laboratory and imaging mocks", () => {
  it("give every patient the same orders and studies on every run, within the last 18 months", () => {
    expect(labOrdersFor("12.345.678-5", now)).toEqual(labOrdersFor("12345678-5", now));
    for (const rut of seededRuts) {
      const orders = labOrdersFor(rut, now);
      expect(orders.length, rut).toBeGreaterThan(5);
      expect(studiesFor(rut, now).length, rut).toBeGreaterThan(3);
      const oldest = Math.min(...orders.map((order) => order.issued.getTime()));
      expect(now.getTime() - oldest).toBeLessThan(548 * 86_400_000);
    }
  });

  it("give each patient validated, pending, mixed, empty and cancelled orders, and studies with and without a PDF report", () => {
    const orders = labOrdersFor("12345678-5", now);
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(["final", "registered", "partial", "amended", "cancelled"]));
    expect(orders.some((order) => order.results.length === 0)).toBe(true);
    expect(orders.some((order) => new Set(order.results.map((result) => result.status)).size > 1)).toBe(true);
    const studies = studiesFor("12345678-5", now);
    expect(new Set(studies.map((study) => study.modality))).toEqual(new Set(["CT", "MR", "CR", "US", "MG", "DX"]));
    expect(studies.some((study) => study.hasPdfReport)).toBe(true);
    expect(studies.some((study) => !study.hasPdfReport)).toBe(true);
    expect(labOrdersFor("12345678-9", now)).toEqual([]);
  });

  it("answer QIDO-RS with 200 [] when nothing matches, and 503 under /fallas/caida", async () => {
    const app = buildMocksApp({ mailStore: new MailStore(), now: () => now });
    const none = await app.inject("/dicom-web/studies?PatientID=12345678-5&StudyDate=19990101-19991231");
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
    const ranged = await app.inject("/dicom-web/studies?PatientID=12345678-5&StudyDate=20260101-");
    expect(ranged.json().length).toBeGreaterThan(0);
    expect((await app.inject("/fallas/caida/fhir/Patient?identifier=x")).statusCode).toBe(503);
    const bundle = await app.inject("/fhir/Patient?identifier=http://regcivil.cl/Validacion/RUN|12345678-5");
    expect(bundle.json()).toMatchObject({ resourceType: "Bundle", type: "searchset", total: 1 });
    await app.close();
  });
});
