import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRange } from "../../server/features/results/result-dates.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { tamperedSignature } from "../helpers/tampered.ts";

let ctx: TestContext;
let patient: string;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const dmy = (iso: string) => iso.split("-").reverse().join("/");
const daysAgo = (days: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};

interface OrderRow {
  date: string;
  orderNumber: string;
  prestacion: string;
  status: string;
  urlPDF: string | null;
}

async function listOrders(query: string, token = patient) {
  return ctx.app.inject({ method: "GET", url: api(`/orders${query}`), headers: bearer(token) });
}

describe("laboratory orders (GET orders)", () => {
  it("lists the signed-in patient's orders of the last 12 months, newest first, with the portal's status labels", async () => {
    const range = defaultRange();
    const response = await listOrders(`?fecha_inicio=${dmy(range.from)}&fecha_termino=${dmy(range.to)}&clinic=hcs-rcr`);
    expect(response.statusCode).toBe(200);
    const orders = response.json().payload as OrderRow[];
    // The mock gives the demo patient 9 orders: one cancelled (hidden) and two older than 12 months.
    expect(orders.map((order) => order.orderNumber).sort()).toEqual([
      "1234567801",
      "1234567802",
      "1234567803",
      "1234567804",
      "1234567805",
      "1234567807",
    ]);
    expect(orders.map((order) => order.date)).toEqual([...orders.map((order) => order.date)].sort().reverse());
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(["Validada", "Pendiente Validación"]));
    for (const order of orders) {
      expect(order.date >= range.from && order.date <= range.to).toBe(true);
      expect(order.prestacion).not.toBe("");
    }
    const pending = orders.find((order) => order.orderNumber === "1234567802")!;
    expect(pending).toMatchObject({ status: "Pendiente Validación", urlPDF: null });
    expect(orders.find((order) => order.orderNumber === "1234567801")!.urlPDF).toMatch(
      /^\/api\/rcr\/v1\/results\/report\?token=[\w-]+\.[\w-]+\.[\w-]+$/,
    );
  });

  it("narrows the list to the dates asked for", async () => {
    const response = await listOrders(`?fecha_inicio=${dmy(daysAgo(29))}&fecha_termino=${dmy(daysAgo(0))}`);
    const orders = response.json().payload as OrderRow[];
    expect(orders.map((order) => order.orderNumber).sort()).toEqual(["1234567801", "1234567802"]);
    const older = await listOrders(`?fecha_inicio=${dmy(daysAgo(540))}&fecha_termino=${dmy(daysAgo(366))}`);
    expect((older.json().payload as OrderRow[]).map((order) => order.orderNumber).sort()).toEqual(["1234567808", "1234567809"]);
  });

  it("refuses dates that are not real dd/mm/yyyy days, or a start after the end, with a Spanish message", async () => {
    const cases: Array<[string, string]> = [
      ["?fecha_inicio=31/02/2026&fecha_termino=01/03/2026", "La fecha de inicio no es válida (use dd/mm/aaaa)"],
      ["?fecha_inicio=2026-01-01&fecha_termino=01/03/2026", "La fecha de inicio no es válida (use dd/mm/aaaa)"],
      ["?fecha_inicio=01/01/2026&fecha_termino=mañana", "La fecha de término no es válida (use dd/mm/aaaa)"],
      ["?fecha_inicio=02/03/2026&fecha_termino=01/03/2026", "La fecha de inicio no puede ser posterior a la fecha de término"],
    ];
    for (const [query, message] of cases) {
      const response = await listOrders(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it("shows an order's procedures with their status; a mixed order has both, an empty one has none", async () => {
    const mixed = await ctx.app.inject({ method: "GET", url: api("/orders/1234567803?clinic=hcs-rcr"), headers: bearer(patient) });
    expect(mixed.statusCode).toBe(200);
    const detail = mixed.json().payload;
    expect(detail.orderNumber).toBe("1234567803");
    expect(detail.urlPDF).toMatch(/^\/api\/rcr\/v1\/results\/report\?token=/);
    expect(detail.listPrestaciones.map((p: { status: string }) => p.status)).toEqual(["Validada", "Pendiente Validación", "Validada"]);

    const empty = await ctx.app.inject({ method: "GET", url: api("/orders/1234567804"), headers: bearer(patient) });
    expect(empty.json().payload.listPrestaciones).toBeNull();
  });

  it("answers another patient's order exactly like one that does not exist", async () => {
    const others = await ctx.app.inject({ method: "GET", url: api("/orders/1700000001"), headers: bearer(patient) });
    const missing = await ctx.app.inject({ method: "GET", url: api("/orders/1234567899"), headers: bearer(patient) });
    expect(others.statusCode).toBe(404);
    expect(others.json()).toEqual(missing.json());
    expect(others.json().message).toBe("Orden no encontrada");
  });

  it("refuses staff (they have no results of their own) and calls without a session", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await listOrders("", admin)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "GET", url: api("/orders") })).statusCode).toBe(401);
  });

  it("opens the report PDF through the portal's signed link, and the link works for nobody once altered", async () => {
    const detail = await ctx.app.inject({ method: "GET", url: api("/orders/1234567801"), headers: bearer(patient) });
    const link: string = detail.json().payload.urlPDF;
    const pdf = await ctx.app.inject({ method: "GET", url: link });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.body).not.toContain(ctx.mocksUrl);

    const tampered = await ctx.app.inject({ method: "GET", url: tamperedSignature(link) });
    expect(tampered.statusCode).toBe(404);
  });

  it("records every read (list, detail, report) with who read, which patient and which order", async () => {
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    const events = await ctx.db.prisma.auditEvent.findMany({ where: { actorId: user.id, resource: "LabOrder" } });
    const actions = new Set(events.map((event) => event.action));
    expect(actions).toEqual(new Set(["lab.orders.list", "lab.order.read", "results.report.read"]));
    expect(events.every((event) => event.patientId === user.id)).toBe(true);
    expect(events.filter((event) => event.action === "lab.order.read").map((event) => event.resourceId)).toContain("1234567803");
    const denied = events.find((event) => event.resourceId === "1700000001");
    expect(denied?.outcome).toBe("failed");
  });

  it("serves the same orders over tRPC", async () => {
    const range = defaultRange();
    const input = encodeURIComponent(JSON.stringify({ fecha_inicio: dmy(range.from), fecha_termino: dmy(range.to) }));
    const response = await ctx.app.inject({ method: "GET", url: `/trpc/laboratory.orders?input=${input}`, headers: bearer(patient) });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.data).toHaveLength(6);
    const other = await ctx.app.inject({
      method: "GET",
      url: `/trpc/laboratory.order?input=${encodeURIComponent(JSON.stringify({ orderNumber: "1700000001" }))}`,
      headers: bearer(patient),
    });
    expect(other.statusCode).toBe(404);
  });
});
