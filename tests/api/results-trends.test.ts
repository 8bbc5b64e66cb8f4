import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
let patient: string;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const GLUCOSE = "2345-7";
const series = (code: string, token = patient) =>
  ctx.app.inject({ method: "GET", url: api(`/orders/analytes/${code}/series`), headers: bearer(token) });

interface Point {
  date: string;
  orderNumber: string;
  value: number;
  low: number | null;
  high: number | null;
  flag: string | null;
}

describe("an analyte's evolution ('Ver evolución')", () => {
  it("gives an order's numeric procedures with their value, unit, range and flag, and the code to ask for their evolution", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/orders/1234567801"), headers: bearer(patient) });
    const glucose = response.json().payload.listPrestaciones.find((p: { name: string }) => p.name === "Glucosa");
    expect(glucose).toMatchObject({ code: GLUCOSE, unit: "mg/dL", low: 70, high: 100, releaseNote: null });
    expect(typeof glucose.value).toBe("number");
    expect(["H", "L", "N"]).toContain(glucose.flag);
  });

  it("gives the patient's validated values of one analyte across all their orders, oldest first, with the range and flags", async () => {
    const response = await series(GLUCOSE);
    expect(response.statusCode).toBe(200);
    const body = response.json().payload as { code: string; name: string; unit: string; points: Point[] };
    expect(body).toMatchObject({ code: GLUCOSE, name: "Glucosa", unit: "mg/dL" });
    expect(body.points.length).toBeGreaterThanOrEqual(5);
    expect(body.points.map((point) => point.date)).toEqual(body.points.map((point) => point.date).sort());
    // Over more than a year: orders older than the list's 12 months count too; the cancelled order (06) does not.
    expect(body.points.map((point) => point.orderNumber)).toContain("1234567809");
    expect(body.points.map((point) => point.orderNumber)).not.toContain("1234567806");
    for (const point of body.points) {
      expect(point).toMatchObject({ low: 70, high: 100 });
      expect(point.flag).toBe(point.value < 70 ? "L" : point.value > 100 ? "H" : "N");
    }
  });

  it("serves the same series over tRPC", async () => {
    const input = encodeURIComponent(JSON.stringify({ code: GLUCOSE }));
    const response = await ctx.app.inject({ method: "GET", url: `/trpc/laboratory.series?input=${input}`, headers: bearer(patient) });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.data.points).toEqual((await series(GLUCOSE)).json().payload.points);
  });

  it("answers 404 for a code the patient has no values of, and 400 with the same words for a malformed code", async () => {
    const unknown = await series("99999-9");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("No hay resultados de ese examen");
    const odd = await series("%3Cscript%3E");
    expect(odd.statusCode).toBe(400);
    expect(odd.json().message).toBe("No hay resultados de ese examen");
  });

  it("is for patients only and is audited with who asked and which orders were read", async () => {
    const staff = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await series(GLUCOSE, staff)).statusCode).toBe(403);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    const events = await ctx.db.prisma.auditEvent.findMany({ where: { actorId: user.id, action: "lab.analyte.series" } });
    expect(events.some((event) => event.resourceId === GLUCOSE && event.patientId === user.id && event.outcome === "ok")).toBe(true);
    expect(events.some((event) => event.resourceId === "99999-9" && event.outcome === "failed")).toBe(true);
  });
});
