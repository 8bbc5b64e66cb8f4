import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
let patient: string;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

interface StudyRow {
  date: string;
  modality: string;
  accessionNumber: string;
  description: string;
  hasReport: boolean;
}

const get = (url: string, token = patient) => ctx.app.inject({ method: "GET", url: api(url), headers: bearer(token) });

describe("imaging studies (GET orders-imaging)", () => {
  it("lists the patient's studies of the last 12 months with their imaging modality only (no DOC or SR)", async () => {
    const response = await get("/orders-imaging");
    expect(response.statusCode).toBe(200);
    const studies = response.json().payload as StudyRow[];
    // Six studies in the mock; the DX study is older than 12 months.
    expect(studies.map((study) => study.modality).sort()).toEqual(["CR", "CT", "MG", "MR", "US"]);
    expect(studies.map((study) => study.accessionNumber)).toEqual([
      "IM1234567801",
      "IM1234567802",
      "IM1234567803",
      "IM1234567804",
      "IM1234567805",
    ]);
    expect(studies.filter((study) => study.hasReport).map((study) => study.modality)).toEqual(["CT", "MR", "US"]);
    expect(studies.every((study) => /^\d{4}-\d{2}-\d{2}$/.test(study.date) && study.description.length > 0)).toBe(true);
  });

  it("filters by dateFrom and dateTo, and refuses bad dates in Spanish", async () => {
    const all = await get("/orders-imaging?dateFrom=01/01/2000&dateTo=31/12/2099");
    expect(all.json().payload).toHaveLength(6);
    const iso = await get("/orders-imaging?dateFrom=2000-01-01&dateTo=2000-12-31");
    expect(iso.json().payload).toEqual([]);
    const bad = await get("/orders-imaging?dateFrom=32/01/2026");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("La fecha de inicio no es válida (use dd/mm/aaaa)");
    const reversed = await get("/orders-imaging?dateFrom=2026-05-02&dateTo=2026-05-01");
    expect(reversed.json().message).toBe("La fecha de inicio no puede ser posterior a la fecha de término");
  });

  it("gives the viewer address of the patient's own study, and the viewer page answers", async () => {
    const response = await get("/orders-imaging/IM1234567801");
    expect(response.statusCode).toBe(200);
    const url: string = response.json().payload;
    expect(url).toBe(`${ctx.mocksUrl}/dicom-web/viewer?StudyInstanceUIDs=1.2.826.0.1.3680043.8.498.12345678.1`);
    const viewer = await fetch(url);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain("Visor de imágenes");
  });

  it("answers another patient's accession number exactly like a missing one, for the viewer and the report", async () => {
    for (const path of ["/orders-imaging/", "/orders-imaging/pdf/"]) {
      const others = await get(`${path}IM1700000001`);
      const missing = await get(`${path}IM1234567899`);
      expect(others.statusCode).toBe(404);
      expect(others.json()).toEqual(missing.json());
    }
  });

  it("hands a portal link to the report PDF that opens it, and says so when a study has no report", async () => {
    const response = await get("/orders-imaging/pdf/IM1234567801");
    expect(response.statusCode).toBe(200);
    const link: string = response.json().payload;
    expect(link.startsWith("/api/rcr/v1/results/report?token=")).toBe(true);
    const pdf = await ctx.app.inject({ method: "GET", url: link });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    const withoutReport = await get("/orders-imaging/pdf/IM1234567803");
    expect(withoutReport.statusCode).toBe(404);
    expect(withoutReport.json().message).toBe("El examen aún no tiene informe");
  });

  it("allows framing exactly the configured viewer origin", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/health") });
    const csp = String(response.headers["content-security-policy"]);
    const frameSrc = /frame-src ([^;]+)/.exec(csp)?.[1]?.split(" ") ?? [];
    expect(frameSrc).toContain(new URL(ctx.mocksUrl).origin);
    expect(frameSrc.every((origin) => !origin.includes("*"))).toBe(true);
  });

  it("refuses staff and records each read with the study", async () => {
    const executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    expect((await get("/orders-imaging", executive)).statusCode).toBe(403);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    const events = await ctx.db.prisma.auditEvent.findMany({ where: { actorId: user.id, resource: "ImagingStudy" } });
    expect(new Set(events.map((event) => event.action))).toEqual(
      new Set(["imaging.studies.list", "imaging.viewer.open", "imaging.report.link", "results.report.read"]),
    );
    expect(events.find((event) => event.action === "imaging.viewer.open" && event.resourceId === "IM1234567801")?.patientId).toBe(user.id);
  });
});
