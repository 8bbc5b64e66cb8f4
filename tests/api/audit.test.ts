import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userIdByRut } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// The 'Auditoría' REST routes and tRPC audit.list: admins filter the trail by who acted, patient, action and days,
// page it and export it as CSV; nobody else reads it.

let ctx: TestContext;
const tokens = { admin: "", executive: "", patient: "" };
const ids = { admin: 0, executive: 0, patient: 0 };

/** Rows with known times and people (inserting is the one thing the append-only table allows). */
async function seedEvents() {
  const row = (createdAt: string, action: string, extra: Record<string, unknown> = {}) => ({
    createdAt: new Date(createdAt),
    action,
    resource: action.split(".")[0]!,
    actorId: ids.admin,
    actorRole: 0,
    ip: "10.0.0.1",
    ...extra,
  });
  await ctx.db.prisma.auditEvent.createMany({
    data: [
      // 2026-03-01 23:30 in Santiago (UTC-3 in March): on the 1st for a Chilean admin, the 2nd in UTC.
      row("2026-03-02T02:30:00Z", "bill.read", { patientId: ids.patient, resourceId: "77" }),
      row("2026-03-02T12:00:00Z", "bill.update", { patientId: ids.patient, resourceId: '=HYPERLINK("http://x";"y")' }),
      row("2026-03-03T12:00:00Z", "user.update", { actorId: ids.executive, actorRole: 1, patientId: ids.patient, outcome: "denied" }),
      row("2026-03-04T12:00:00Z", "lab.orders.list", { actorId: ids.patient, actorRole: 2, patientId: ids.patient }),
    ],
  });
}

beforeAll(async () => {
  ctx = await createTestContext();
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  tokens.patient = await ctx.login(demo.patient.rut, demo.patient.password);
  ids.admin = await userIdByRut(ctx.db.prisma, demo.admin.rut);
  ids.executive = await userIdByRut(ctx.db.prisma, demo.executive.rut);
  ids.patient = await userIdByRut(ctx.db.prisma, demo.patient.rut);
  await seedEvents();
});
afterAll(() => ctx.close());

const events = (query: string, token = tokens.admin) =>
  ctx.app.inject({ method: "GET", url: api(`/admin/audit/events?${query}`), headers: bearer(token) });
const march = "from=2026-03-01&to=2026-03-31";

interface EventRow {
  action: string;
  createdAt: string;
  outcome: string;
  actor: { rut: string; name: string } | null;
  patient: { rut: string; name: string } | null;
  resourceId: string | null;
}

describe("reading the audit trail", () => {
  it("lists the events newest first, naming who acted and the patient by RUT and name", async () => {
    const response = await events(march);
    expect(response.statusCode).toBe(200);
    const { events: rows, total, totalCapped } = response.json().payload as { events: EventRow[]; total: number; totalCapped: boolean };
    expect(rows.map((row) => row.action)).toEqual(["lab.orders.list", "user.update", "bill.update", "bill.read"]);
    expect(total).toBe(4);
    expect(totalCapped).toBe(false);
    expect(rows[1]).toMatchObject({ outcome: "denied", actor: { rut: "22222222-2" }, patient: { rut: "12345678-5" } });
    expect(rows[1]!.patient!.name).not.toBe("");
  });

  it("filters by who acted, by patient and by action, each given as a RUT with or without dots", async () => {
    const byActor = (await events(`${march}&actor=22.222.222-2`)).json().payload.events as EventRow[];
    expect(byActor.map((row) => row.action)).toEqual(["user.update"]);
    const byPatient = (await events(`${march}&patient=12345678-5&action=bill.read`)).json().payload.events as EventRow[];
    expect(byPatient.map((row) => row.action)).toEqual(["bill.read"]);
    const byAction = (await events(`${march}&action=lab.orders.list`)).json().payload.events as EventRow[];
    expect(byAction.map((row) => row.actor?.rut)).toEqual(["12345678-5"]);
  });

  it("reads days in Chile's time: an event at 23:30 in Santiago belongs to that day, not to the next UTC day", async () => {
    const first = (await events("from=2026-03-01&to=2026-03-01")).json().payload.events as EventRow[];
    expect(first.map((row) => row.action)).toEqual(["bill.read"]);
    const second = (await events("from=2026-03-02&to=2026-03-02")).json().payload.events as EventRow[];
    expect(second.map((row) => row.action)).toEqual(["bill.update"]);
  });

  it("pages the rows and keeps the total of the whole filter", async () => {
    const page2 = (await events(`${march}&limit=3&page=2`)).json().payload;
    expect(page2).toMatchObject({ page: 2, total: 4 });
    expect((page2.events as EventRow[]).map((row) => row.action)).toEqual(["bill.read"]);
  });

  it("answers an empty page for a RUT that belongs to nobody", async () => {
    const body = (await events(`${march}&actor=11.111.112-K`)).json().payload;
    expect(body).toMatchObject({ events: [], total: 0 });
  });

  it("refuses executives and patients with 403 in Spanish, and audits the refusal", async () => {
    for (const token of [tokens.executive, tokens.patient]) {
      const response = await events(march, token);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/permiso/i);
    }
    const csv = await ctx.app.inject({ method: "GET", url: api("/admin/audit/export.csv"), headers: bearer(tokens.executive) });
    expect(csv.statusCode).toBe(403);
    const denied = await ctx.db.prisma.auditEvent.count({ where: { action: { in: ["audit.list", "audit.export"] }, outcome: "denied" } });
    expect(denied).toBe(3);
  });

  it("answers bad filters with 400 and the rule's Spanish message", async () => {
    const cases: Array<[string, string]> = [
      ["action=bill.hack", "Acción inválida"],
      ["from=2026-03-05&to=2026-03-01", "La fecha Desde no puede ser posterior a la fecha Hasta"],
      ["from=05-03-2026", "La fecha es inválida"],
      ["actor=12.345.678-9", "Rut inválido"],
      ["page=0", "La página debe ser un número entero mayor o igual a 1"],
    ];
    for (const [query, message] of cases) {
      const response = await events(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toBe(message);
    }
  });

  it("writes a row for each reading of the trail (who looked, with which filters)", async () => {
    const before = await ctx.db.prisma.auditEvent.count({ where: { action: "audit.list", actorId: ids.admin } });
    await events(`${march}&action=bill.read`);
    const rows = await ctx.db.prisma.auditEvent.findMany({ where: { action: "audit.list", actorId: ids.admin }, orderBy: { id: "desc" } });
    expect(rows).toHaveLength(before + 1);
    expect(rows[0]!.after).toMatchObject({ action: "bill.read", from: "2026-03-01" });
  });

  it("gives tRPC's audit.list the same page as REST", async () => {
    const input = encodeURIComponent(JSON.stringify({ from: "2026-03-01", to: "2026-03-31", limit: 10 }));
    const response = await ctx.app.inject({ method: "GET", url: `/trpc/audit.list?input=${input}`, headers: bearer(tokens.admin) });
    expect(response.statusCode).toBe(200);
    const viaRest = (await events(`${march}&limit=10`)).json().payload;
    expect(response.json().result.data).toEqual(viaRest);
    const refused = await ctx.app.inject({ method: "GET", url: `/trpc/audit.list?input=${input}`, headers: bearer(tokens.executive) });
    expect(refused.statusCode).toBe(403);
  });
});

describe("exporting the audit trail as CSV", () => {
  it("downloads every filtered row for Excel: BOM, semicolons, quoted cells and formulas neutralised", async () => {
    const response = await ctx.app.inject({
      method: "GET",
      url: api(`/admin/audit/export.csv?${march}&actor=11.111.111-1`),
      headers: bearer(tokens.admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers["x-audit-rows"]).toBe("2");
    const text = response.body;
    expect(text.startsWith("\uFEFFFecha (hora de Chile);Acción;Resultado;RUT usuario;")).toBe(true);
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^2026-03-02 09:00:00;bill\.update;ok;11111111-1;/);
    // The formula becomes text (leading apostrophe) and, holding ';' and quotes, is quoted with its quotes doubled.
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"";""y"")"`);
    expect(lines[2]).toMatch(/^2026-03-01 23:30:00;bill\.read;ok;11111111-1;[^;]*;Administrador;12345678-5;/);
  });

  it("answers bad filters with 400 before exporting anything", async () => {
    const response = await ctx.app.inject({
      method: "GET",
      url: api("/admin/audit/export.csv?action=nada"),
      headers: bearer(tokens.admin),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Acción inválida");
  });
});
