import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { insertPatient, plainRutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// 'Accesos a mis datos' (issue 28): who read or changed a patient's data, from the audit trail; the patient sees only
// their own, staff see a patient's from the user's edit page within their usual scope.

let ctx: TestContext;
const ids = { ana: 0, bruno: 0, carla: 0, admin: 0, executive: 0 };
const tokens = { ana: "", bruno: "", admin: "", executive: "" };
const createCaller = createCallerFactory(appRouter);
const callerOf = (token: string) => createCaller(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${token}`));

beforeAll(async () => {
  ctx = await createTestContext();
  const patient = (body: number, firstName: string, clinic: string) => insertPatient(ctx.db.prisma, body, firstName, clinic);
  ids.ana = await patient(30000001, "Ana", "hcs-rcr");
  ids.bruno = await patient(30000002, "Bruno", "portada-rcr");
  ids.carla = await patient(30000003, "Carla", "hcs-rcr");
  const staff = await ctx.db.prisma.user.findMany({
    where: { rut: { in: ["11111111-1", "22222222-2"] } },
    select: { id: true, rut: true },
  });
  ids.admin = staff.find((row) => row.rut === "11111111-1")!.id;
  ids.executive = staff.find((row) => row.rut === "22222222-2")!.id;
  const row = (createdAt: string, action: string, actorId: number | null, actorRole: number | null, patientId = ids.ana) => ({
    createdAt: new Date(createdAt),
    action,
    resource: action.split(".")[0]!,
    actorId,
    actorRole,
    patientId,
  });
  await ctx.db.prisma.auditEvent.createMany({
    data: [
      // 2026-03-01 23:30 in Santiago (UTC-3): the 1st for the patient, the 2nd in UTC.
      row("2026-03-02T02:30:00Z", "bill.read", ids.ana, 2),
      row("2026-03-02T12:00:00Z", "user.update", ids.admin, 0),
      row("2026-03-03T12:00:00Z", "lab.orders.list", ids.executive, 1),
      row("2026-03-04T12:00:00Z", "payment.reconcile", null, null),
      row("2026-03-05T12:00:00Z", "lab.order.read", ids.carla, 2),
      row("2026-03-05T13:00:00Z", "bill.read", ids.bruno, 2, ids.bruno),
    ],
  });
  // Carla cares for Ana: another patient account appears in Ana's log only as her caregiver (issue 42).
  await ctx.db.prisma.caregiverLink.create({
    data: {
      caregiverId: ids.carla,
      dependentId: ids.ana,
      relationship: "otro",
      documentSeen: "Poder simple",
      parts: ["resultados"],
      expiresOn: new Date("2030-12-31T00:00:00Z"),
      createdById: ids.admin,
    },
  });
  tokens.ana = await ctx.login(plainRutOf(30000001), "Paciente2026");
  tokens.bruno = await ctx.login(plainRutOf(30000002), "Paciente2026");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
});
afterAll(() => ctx.close());

const march = "from=2026-03-01&to=2026-03-31&scope=all";
const own = (token: string, query = march) =>
  ctx.app.inject({ method: "GET", url: api(`/patient/accesses?${query}`), headers: bearer(token) });
const ofPatient = (token: string, userId: number, query = march) =>
  ctx.app.inject({ method: "GET", url: api(`/admin/users/${userId}/accesses?${query}`), headers: bearer(token) });

describe("a patient's own accesses", () => {
  it("names who acted as the patient reads it: themself, staff by name and role, a caregiver, the clinic's systems", async () => {
    const response = await own(tokens.ana);
    expect(response.statusCode).toBe(200);
    const { entries, total } = response.json().payload;
    expect(total).toBe(5);
    expect(entries.map((entry: { action: string }) => entry.action)).toEqual([
      "lab.order.read",
      "payment.reconcile",
      "lab.orders.list",
      "user.update",
      "bill.read",
    ]);
    expect(entries.map((entry: { actor: unknown }) => entry.actor)).toEqual([
      { kind: "caregiver", name: "Carla Prueba" },
      { kind: "system" },
      { kind: "staff", name: expect.any(String), role: "Ejecutivo" },
      { kind: "staff", name: expect.any(String), role: "Administrador" },
      { kind: "self" },
    ]);
  });

  it("filters by days in Chile's time and pages the list", async () => {
    const firstDay = (await own(tokens.ana, "from=2026-03-01&to=2026-03-01")).json().payload;
    expect(firstDay.entries.map((entry: { action: string }) => entry.action)).toEqual(["bill.read"]);
    const second = (await own(tokens.ana, `${march}&page=2&limit=2`)).json().payload;
    expect(second.entries.map((entry: { action: string }) => entry.action)).toEqual(["lab.orders.list", "user.update"]);
  });

  it("opens on 'Solo otras personas' when someone else acted in those days, and shows everything when asked or when no one else did", async () => {
    const byDefault = (await own(tokens.ana, "from=2026-03-01&to=2026-03-31")).json().payload;
    expect(byDefault).toMatchObject({ scope: "others", total: 4, othersTotal: 4 });
    expect(byDefault.entries.map((entry: { actor: { kind: string } }) => entry.actor.kind)).not.toContain("self");
    const everything = (await own(tokens.ana)).json().payload;
    expect(everything).toMatchObject({ scope: "all", total: 5, othersTotal: 4 });
    const onlyOwn = (await own(tokens.ana, "from=2026-03-01&to=2026-03-01")).json().payload;
    expect(onlyOwn).toMatchObject({ scope: "all", total: 1, othersTotal: 0 });
    const bad = await own(tokens.ana, "scope=todos");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Filtro inválido");
  });

  it("refuses a range with Desde after Hasta in Spanish, and changes nothing", async () => {
    const response = await own(tokens.ana, "from=2026-03-10&to=2026-03-01");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("La fecha Desde no puede ser posterior a la fecha Hasta");
  });

  it("never shows another patient's accesses, over REST or tRPC (an id sent along is ignored)", async () => {
    const bruno = (await own(tokens.bruno)).json().payload;
    expect(bruno.entries.map((entry: { action: string }) => entry.action)).toEqual(["bill.read"]);
    const viaTrpc = await callerOf(tokens.bruno).dataRights.accesses({
      from: "2026-03-01",
      to: "2026-03-31",
      userId: ids.ana,
    } as never);
    expect(viaTrpc.total).toBe(1);
    expect((await ofPatient(tokens.bruno, ids.ana)).statusCode).toBe(403);
    await expect(callerOf(tokens.bruno).dataRights.patientAccesses({ userId: ids.ana, page: 1, limit: 20 })).rejects.toThrow(TRPCError);
  });
});

describe("staff reading a patient's accesses", () => {
  it("lets an admin read any patient's, and the reading shows in the patient's own list", async () => {
    const response = await ofPatient(tokens.admin, ids.bruno);
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.total).toBe(1);
    // Staff read whose accesses these are (issue 45); a patient's own list does not repeat their name.
    expect(response.json().payload.patient).toEqual({ name: "Bruno Prueba", rut: "30.000.002-" + plainRutOf(30000002).slice(-1) });
    expect((await own(tokens.bruno, "")).json().payload.patient).toBeUndefined();
    const today = (await own(tokens.bruno, "")).json().payload.entries[0];
    expect(today).toMatchObject({ action: "data.accesses.list", actor: { kind: "staff", role: "Administrador" } });
  });

  it("lets an executive read only patients registered at their clinics (404 for the others, as for a missing one)", async () => {
    expect((await ofPatient(tokens.executive, ids.ana)).statusCode).toBe(200);
    const outside = await ofPatient(tokens.executive, ids.bruno);
    expect(outside.statusCode).toBe(404);
    expect((await ofPatient(tokens.executive, 99_999_999)).json()).toEqual(outside.json());
    const denied = await ctx.db.prisma.auditEvent.findFirst({
      where: { actorId: ids.executive, action: "data.accesses.list", outcome: "denied", resourceId: String(ids.bruno) },
    });
    expect(denied).not.toBeNull();
  });
});
