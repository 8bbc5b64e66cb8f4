import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZDataExport } from "../../server/contract/data-export.schema.ts";
import { insertUser, plainRutOf } from "../helpers/fixtures.ts";
import { fhirR4Validator } from "../helpers/fhir-r4-schema.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { unzip } from "../helpers/unzip.ts";

// 'Descargar mis datos' (issue 28): the demo patient's ZIP opens, datos.json validates against its documented schema
// and laboratorio.json against the FHIR R4 JSON schema; one request per hour; a link opens only its own export.

let ctx: TestContext;
const tokens = { patient: "", other: "", admin: "" };
let validateFhir: ReturnType<typeof fhirR4Validator>;

beforeAll(async () => {
  // Compiled before the portal starts: the seconds it blocks would read as overload to the portal's load shedding.
  validateFhir = fhirR4Validator();
  ctx = await createTestContext();
  await insertUser(ctx.db.prisma, {
    rut: plainRutOf(32000001),
    email: "otra@correo.cl",
    roleType: 2,
    password: "Paciente2026",
    firstName: "Otra",
  });
  tokens.patient = await ctx.login(demo.patient.rut, demo.patient.password);
  tokens.other = await ctx.login(plainRutOf(32000001), "Paciente2026");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
});
afterAll(() => ctx.close());

const state = (token: string) => ctx.app.inject({ method: "GET", url: api("/patient/data-export"), headers: bearer(token) });
const request = (token: string) => ctx.app.inject({ method: "POST", url: api("/patient/data-export"), headers: bearer(token) });

let downloadUrl = "";
let files = new Map<string, Buffer>();

describe("the demo patient's export", () => {
  it("is prepared in the background and offered for 24 hours through a signed link", async () => {
    const asked = await request(tokens.patient);
    expect(asked.statusCode).toBe(200);
    const latest = asked.json().payload.latest;
    expect(latest.status).toBe("preparing");
    expect(Date.parse(latest.expiresAt) - Date.parse(latest.createdAt)).toBe(24 * 3_600_000);
    await ctx.app.deps.background.settled();
    const ready = (await state(tokens.patient)).json().payload.latest;
    expect(ready.status).toBe("ready");
    downloadUrl = ready.downloadUrl;
    const response = await ctx.app.inject({ method: "GET", url: downloadUrl });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["cache-control"]).toBe("no-store");
    files = await unzip(response.rawPayload);
    expect([...files.keys()].slice(0, 5)).toEqual(["LEEME.txt", "datos.json", "datos.schema.json", "laboratorio.json", "resumen.pdf"]);
  });

  it("carries datos.json valid against the documented schema (the one in the ZIP), with the bills' PDFs beside it", () => {
    const datos = JSON.parse(files.get("datos.json")!.toString("utf8"));
    const schema = JSON.parse(files.get("datos.schema.json")!.toString("utf8"));
    expect(schema).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(ZDataExport))));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    expect(validate(datos), JSON.stringify(validate.errors)).toBe(true);
    expect(datos.patient.rut).toBe("12345678-5");
    expect(datos.bills.length).toBe(14);
    expect(datos.laboratoryOrders.length).toBeGreaterThan(0);
    const paths = datos.bills.flatMap((bill: { files: Array<{ zipPath: string }> }) => bill.files.map((file) => file.zipPath));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(files.get(path)!.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(files.get("resumen.pdf")!.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("carries laboratorio.json as a FHIR R4 Bundle valid against the FHIR R4 JSON schema", () => {
    const bundle = JSON.parse(files.get("laboratorio.json")!.toString("utf8"));
    const validate = validateFhir;
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(bundle).toMatchObject({ resourceType: "Bundle", type: "collection" });
    const kinds = new Set(bundle.entry.map((entry: { resource: { resourceType: string } }) => entry.resource.resourceType));
    expect(kinds).toEqual(new Set(["DiagnosticReport", "Observation"]));
    // The schema does catch a broken Bundle (this test can fail).
    expect(validate({ ...bundle, type: "not-a-bundle-type" })).toBe(false);
  });

  it("is audited: the request, the preparation by the portal and the download", async () => {
    const actions = await ctx.db.prisma.auditEvent.findMany({
      where: { action: { startsWith: "data.export." } },
      select: { action: true, actorId: true, outcome: true },
      orderBy: { id: "asc" },
    });
    expect(actions.map((row) => row.action)).toEqual(["data.export.request", "data.export.prepare", "data.export.download"]);
    expect(actions[1]!.actorId).toBeNull();
  });
});

describe("limits", () => {
  it("allows one request per patient per hour, with the time of the next one in Spanish", async () => {
    const again = await request(tokens.patient);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^Ya pidió sus datos hace menos de una hora\. Podrá pedirlos de nuevo a las \d{2}:\d{2}\.$/);
  });

  it("never shows or opens another patient's export", async () => {
    expect((await state(tokens.other)).json().payload.latest).toBeNull();
    await request(tokens.other);
    await ctx.app.deps.background.settled();
    const othersUrl = (await state(tokens.other)).json().payload.latest.downloadUrl as string;
    const patientsId = /download\/([^?]+)/.exec(downloadUrl)![1]!;
    const crossed = othersUrl.replace(/download\/[^?]+/, `download/${patientsId}`);
    expect((await ctx.app.inject({ method: "GET", url: crossed })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "GET", url: downloadUrl.replace(/token=[^&]+/, "token=x.y.z") })).statusCode).toBe(403);
  });

  it("refuses staff (the export is the patient's own)", async () => {
    expect((await request(tokens.admin)).statusCode).toBe(403);
  });

  it("is no longer offered after 24 hours", async () => {
    await ctx.db.prisma.dataExport.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await state(tokens.patient)).json().payload.latest).toBeNull();
    const response = await ctx.app.inject({ method: "GET", url: downloadUrl });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("La descarga ya no está disponible. Pida sus datos de nuevo.");
  });
});
