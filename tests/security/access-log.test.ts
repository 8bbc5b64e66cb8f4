import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE_SIZE } from "../../server/contract/paging.ts";
import type { AccessActor } from "../../server/contract/data-rights.schemas.ts";
import { api, bearer } from "../helpers/test-app.ts";
import { restEndpoints, trpcEndpoints, type Endpoint } from "./support/endpoints.ts";
import { caregiverCalls, notAboutAnotherPatient, PATIENT_INPUTS, staffCalls, takesPatient } from "./support/patient-calls.ts";
import { createWorld, send, type Actor, type World } from "./support/patient-world.ts";

// Issue 42, points 1 and 4: every read or change of one patient's data by anyone other than that patient — staff by
// name and role, a caregiver through a link — is recorded with that patient and shows in their 'Accesos a mis datos'.
// The endpoints are read from the route table and the router; each one that takes a patient (an id, RUT, bill, file,
// order, payment or link, or X-Actuar-Por) is called as each actor it admits, and the test looks for the row.

let world: World;
let endpoints: Endpoint[];
beforeAll(async () => {
  world = await createWorld();
  endpoints = [...restEndpoints(world.ctx.app), ...trpcEndpoints()];
}, 120_000);
afterAll(() => world.close());

const namesPatient = (endpoint: Endpoint) => endpoint.inputs.some((name) => (PATIENT_INPUTS as readonly string[]).includes(name));
/** Staff reach the patient through it: a staff route, or one open to every user that names her data. */
const staffReach = (endpoint: Endpoint) =>
  endpoint.access === "staff" ||
  endpoint.access === "admin" ||
  ((endpoint.access === "user" || endpoint.access === "signed") && namesPatient(endpoint));
/** A caregiver reaches the patient through it: a route acting for a dependent, or a patient's route naming her data. */
const caregiverReach = (endpoint: Endpoint) =>
  endpoint.caregiverPart !== undefined || (endpoint.access !== "staff" && endpoint.access !== "admin" && namesPatient(endpoint));

const lastAuditId = async () => (await world.ctx.db.prisma.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;

/** Calls the endpoint as the actor; what went wrong, or null when the call succeeded and the patient's log has its row. */
async function checkCall(endpoint: Endpoint, actor: Actor, recipe: (typeof staffCalls)[string]): Promise<string | null> {
  const call = await recipe(world, actor).catch((error: unknown) => error as Error);
  if (call instanceof Error) return `could not prepare the call — ${endpoint.name} as ${actor}: ${call.message}`;
  const before = await lastAuditId();
  const answer = await send(world, endpoint, actor, call);
  const where = `${endpoint.name} as ${actor}`;
  // A route that acts for a dependent named in X-Actuar-Por declares it, so the caregiver matrix tries it with every link state.
  if (actor === "caregiver" && call.actingFor !== false && !endpoint.caregiverPart)
    return `acts for the dependent named in X-Actuar-Por without declaring its caregiver part — ${where}`;
  if (answer.statusCode >= 300) return `the call failed — ${where}: ${answer.statusCode} ${answer.body.slice(0, 160)}`;
  const patientId = typeof call.patientId === "function" ? await call.patientId() : (call.patientId ?? world.ids.patient);
  const rows = await world.ctx.db.prisma.auditEvent.findMany({
    where: { id: { gt: before }, actorId: world.ids[actor] },
    select: { patientId: true, outcome: true, action: true },
  });
  if (!rows.some((row) => row.patientId === patientId && row.outcome === "ok"))
    return `no row in the patient's log — ${where} (rows: ${JSON.stringify(rows)})`;
  if (actor === "caregiver" && rows.some((row) => row.patientId === world.ids.caregiver))
    return `recorded in the caregiver's own log — ${where}`;
  return null;
}

describe("the endpoints that take a patient", () => {
  it("each has a call as staff and as a caregiver wherever they reach it, or a reason it gives nobody another's data", () => {
    const missing: string[] = [];
    for (const endpoint of endpoints.filter(takesPatient)) {
      if (notAboutAnotherPatient[endpoint.name]) continue;
      if (staffReach(endpoint) && !staffCalls[endpoint.name]) missing.push(`staff call — ${endpoint.name}`);
      if (caregiverReach(endpoint) && !caregiverCalls[endpoint.name]) missing.push(`caregiver call — ${endpoint.name}`);
    }
    expect(missing).toEqual([]);
    const names = new Set(endpoints.map((endpoint) => endpoint.name));
    const stale = [...Object.keys(staffCalls), ...Object.keys(caregiverCalls)].filter((name) => !names.has(name));
    const staleReasons = Object.keys(notAboutAnotherPatient).filter(
      (name) => !endpoints.some((endpoint) => endpoint.name === name && takesPatient(endpoint)),
    );
    expect([...stale, ...staleReasons]).toEqual([]);
    // The families the issue names are all here: users, bills, files, payments, results, links, requests, accesses.
    expect(Object.keys(staffCalls).length + Object.keys(caregiverCalls).length).toBeGreaterThanOrEqual(90);
  });
});

describe("reads and changes by someone other than the patient land in the patient's log", () => {
  it("staff (an admin, and an executive of the patient's clinic) over every REST route and tRPC procedure", async () => {
    const failures: string[] = [];
    for (const endpoint of endpoints.filter((candidate) => staffCalls[candidate.name])) {
      for (const actor of endpoint.access === "admin" ? (["admin"] as const) : (["admin", "executive"] as const)) {
        const failure = await checkCall(endpoint, actor, staffCalls[endpoint.name]!);
        if (failure) failures.push(failure);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it("a caregiver through a live link (X-Actuar-Por over REST and tRPC, or the links issued to them)", async () => {
    const failures: string[] = [];
    for (const endpoint of endpoints.filter((candidate) => caregiverCalls[candidate.name])) {
      const failure = await checkCall(endpoint, "caregiver", caregiverCalls[endpoint.name]!);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it("the patient reads each of those rows in 'Accesos a mis datos': staff by name and role, the caregiver by name", async () => {
    const entries = new Map<number, AccessActor>();
    for (let page = 1; ; page++) {
      const answer = await world.ctx.app.inject({
        method: "GET",
        url: api(`/patient/accesses?limit=${MAX_PAGE_SIZE}&page=${page}`),
        headers: bearer(world.tokens.patient),
      });
      expect(answer.statusCode).toBe(200);
      const { entries: rows } = answer.json().payload as { entries: Array<{ id: number; actor: AccessActor }> };
      for (const row of rows) entries.set(row.id, row.actor);
      if (rows.length < MAX_PAGE_SIZE) break;
    }
    const people = await world.ctx.db.prisma.user.findMany({
      where: { id: { in: [world.ids.admin, world.ids.executive, world.ids.caregiver] } },
      select: { id: true, firstName: true, lastName: true },
    });
    const nameOf = (id: number) => {
      const person = people.find((candidate) => candidate.id === id)!;
      return `${person.firstName} ${person.lastName}`;
    };
    const expected: Record<Actor, AccessActor> = {
      admin: { kind: "staff", name: nameOf(world.ids.admin), role: "Administrador" },
      executive: { kind: "staff", name: nameOf(world.ids.executive), role: "Ejecutivo" },
      caregiver: { kind: "caregiver", name: nameOf(world.ids.caregiver) },
    };
    const rows = await world.ctx.db.prisma.auditEvent.findMany({
      where: { patientId: world.ids.patient, actorId: { in: [world.ids.admin, world.ids.executive, world.ids.caregiver] } },
      select: { id: true, actorId: true, action: true },
    });
    expect(rows.length).toBeGreaterThan(100);
    const actorOf = (id: number | null): Actor =>
      id === world.ids.admin ? "admin" : id === world.ids.executive ? "executive" : "caregiver";
    const wrong = rows
      .filter((row) => JSON.stringify(entries.get(row.id)) !== JSON.stringify(expected[actorOf(row.actorId)]))
      .map((row) => `${row.action} by ${actorOf(row.actorId)}: ${JSON.stringify(entries.get(row.id) ?? null)}`);
    expect(wrong).toEqual([]);
  }, 120_000);
});
