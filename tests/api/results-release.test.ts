import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionUserSelect } from "../../server/http/authenticate.ts";
import { reportLink } from "../../server/features/results/report-links.ts";
import { IN_PERSON_NOTE } from "../../server/lib/release-rules.ts";
import { releasedLabOrders } from "../../server/lib/released-results.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// The demo patient's orders 01, 05 and 07 come from the Hospital Clínico del Sur (hcs-rcr), 03 and 09 from Clínica
// Puerto Montt. Creatinina (2160-0) is given in person at hcs-rcr only; Colesterol total (2093-3) waits 60 days everywhere.
const CREATININE = "2160-0";
const CHOLESTEROL = "2093-3";
const rules = { "hcs-rcr": { inPerson: [CREATININE] }, "*": { delayDays: { [CHOLESTEROL]: 60 } } };

let ctx: TestContext;
let patient: string;
let userId: number;
beforeAll(async () => {
  ctx = await createTestContext({ RESULT_RELEASE_RULES: JSON.stringify(rules) });
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
  userId = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } })).id;
});
afterAll(() => ctx.close());

const get = (path: string) => ctx.app.inject({ method: "GET", url: api(path), headers: bearer(patient) });
const tenYears = { from: "2016-01-01", to: "2099-12-31" };

describe("clinic release rules on every path", () => {
  it("list: an order with an in-person test says so and has no PDF link; a recent order with a delayed test is pending", async () => {
    const orders = (await get("/orders")).json().payload as Array<{
      orderNumber: string;
      releaseNote: string | null;
      urlPDF: string | null;
      status: string;
    }>;
    const first = orders.find((order) => order.orderNumber === "1234567801")!;
    expect(first).toMatchObject({ releaseNote: IN_PERSON_NOTE, urlPDF: null, status: "Pendiente Validación" });
    expect(orders.find((order) => order.orderNumber === "1234567807")).toMatchObject({ releaseNote: IN_PERSON_NOTE, urlPDF: null });
  });

  it("detail: the in-person test shows the note and no value, the held one is pending without value, the others keep theirs", async () => {
    const detail = (await get("/orders/1234567801")).json().payload;
    const byCode = (code: string) => detail.listPrestaciones.find((p: { code: string }) => p.code === code);
    expect(byCode(CREATININE)).toMatchObject({ value: null, low: null, flag: null, releaseNote: IN_PERSON_NOTE });
    expect(byCode(CHOLESTEROL)).toMatchObject({ value: null, status: "Pendiente Validación", releaseNote: null });
    expect(byCode("2345-7").value).toEqual(expect.any(Number));
  });

  it("PDF: a report link to an order holding a result back opens nothing, and it cannot be e-mailed", async () => {
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: sessionUserSelect });
    // A link is issued within the session of the patient's token (it lives no longer than that session).
    const { sid: sessionId } = JSON.parse(Buffer.from(patient.split(".")[1]!, "base64url").toString("utf8")) as { sid: string };
    const caller = { ...user, sessionId };
    const link = await reportLink(ctx.config, { caller, patient: caller, linkId: null }, { kind: "lab", ref: "1234567801" });
    const opened = await ctx.app.inject({ method: "GET", url: link });
    expect(opened.statusCode).toBe(404);
    const mailed = await ctx.app.inject({
      method: "GET",
      url: api(`/mail/mailValtek?documentLink=${encodeURIComponent(link)}`),
      headers: bearer(patient),
    });
    expect(mailed.statusCode).toBe(404);
  });

  it("trends: no point of an in-person test from that clinic, nor of a held test before its day", async () => {
    const creatinine = (await get(`/orders/analytes/${CREATININE}/series`)).json().payload.points as Array<{ orderNumber: string }>;
    const orders = creatinine.map((point) => point.orderNumber);
    expect(orders).toContain("1234567809");
    for (const hcs of ["1234567801", "1234567805", "1234567807", "1234567808"]) expect(orders).not.toContain(hcs);
    const cholesterol = (await get(`/orders/analytes/${CHOLESTEROL}/series`)).json().payload.points as Array<{ orderNumber: string }>;
    expect(cholesterol.map((point) => point.orderNumber)).not.toContain("1234567801");
    expect(cholesterol.map((point) => point.orderNumber)).toContain("1234567807");
  });

  it("the function other features call (the data download, the notices) gives the same released orders", async () => {
    const orders = await releasedLabOrders(ctx.app.deps, "12345678-5", tenYears);
    const first = orders.find((order) => order.orderNumber === "1234567801")!;
    expect(first).toMatchObject({ releaseNote: IN_PERSON_NOTE, reportUrl: null, withheld: true });
    expect(first.results.find((result) => result.code === CREATININE)?.quantity).toBeNull();
  });
});
