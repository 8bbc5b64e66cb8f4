import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppointmentDto } from "../../server/contract/appointments.dto.ts";
import { refreshMessage } from "../../server/lib/provider-answer-cache.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 44's budget: the agenda's answer to a patient's list is kept APPOINTMENTS_CACHE_SECONDS (30 by default) per
// instance. What cannot wait is asked fresh: 'actualizar' (REST) / refresh (tRPC), and a cancellation or confirmation
// drops the kept answer. The scheduling mock counts the Appointment searches it answers (/agenda/registro): that count
// is what is asserted, beside what the patient is shown.

const agendaSearches = async (ctx: TestContext) =>
  ((await (await fetch(`${ctx.mocksUrl}/agenda/registro`)).json()) as { appointmentSearches: { patient: number } }).appointmentSearches
    .patient;

async function searchesOf(ctx: TestContext, read: () => Promise<unknown>): Promise<number> {
  const before = await agendaSearches(ctx);
  await read();
  return (await agendaSearches(ctx)) - before;
}

const listOf = async (ctx: TestContext, token: string, query = "") => {
  const answer = await ctx.app.inject({ method: "GET", url: api(`/appointments${query}`), headers: bearer(token) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().payload as AppointmentDto[];
};

const trpcList = async (ctx: TestContext, token: string, input?: unknown) => {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const answer = await ctx.app.inject({ method: "GET", url: `/trpc/appointments.list${query}`, headers: bearer(token) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().result.data as AppointmentDto[];
};

/** Books the first free slot of Clínica Sur's page for the patient, as the clinic's frame does; its slot id. */
async function bookInTheAgenda(ctx: TestContext, rut: string): Promise<string> {
  const page = await (await fetch(`${ctx.mocksUrl}/agenda?externalCenterId=${encodeURIComponent("HCS@4")}`)).text();
  const slotId = /name="slotId" value="([^"]+)"/.exec(page)![1]!;
  const booked = await fetch(`${ctx.mocksUrl}/agenda/reservar`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ externalCenterId: "HCS@4", slotId, rut, email: "paciente@example.cl" }),
  });
  expect(booked.status).toBe(200);
  return slotId;
}

const slotIdOf = (appointment: AppointmentDto) => `${appointment.date.split("-").reverse().join("-")}T${appointment.time}`;

describe("'Mis citas' keeps the agenda's answer a few seconds", () => {
  let ctx: TestContext;
  let patient: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    patient = await ctx.login(demo.patient.rut, demo.patient.password);
  }, 120_000);
  afterAll(() => ctx.close());

  it("two reads within APPOINTMENTS_CACHE_SECONDS ask the agenda once, and both are in the access log", async () => {
    const auditRows = () => ctx.db.prisma.auditEvent.count({ where: { action: "appointment.list" } });
    const rowsBefore = await auditRows();

    expect(await searchesOf(ctx, () => listOf(ctx, patient))).toBe(1);
    expect(await searchesOf(ctx, () => trpcList(ctx, patient))).toBe(0);

    expect((await auditRows()) - rowsBefore).toBe(2);
  });

  it("a booking made in the clinic's frame shows at once when the list is asked fresh (REST actualizar, tRPC refresh)", async () => {
    const before = await listOf(ctx, patient);
    const slotId = await bookInTheAgenda(ctx, demo.patient.rut);

    // The kept answer does not know the booking yet…
    expect((await listOf(ctx, patient)).map(slotIdOf)).toEqual(before.map(slotIdOf));
    // …a fresh read does, and keeps it for the reads after it.
    expect(
      await searchesOf(ctx, async () => expect((await listOf(ctx, patient, "?actualizar=true")).map(slotIdOf)).toContain(slotId)),
    ).toBe(1);
    expect(await searchesOf(ctx, async () => expect((await trpcList(ctx, patient)).map(slotIdOf)).toContain(slotId))).toBe(0);

    const slotTwo = await bookInTheAgenda(ctx, demo.patient.rut);
    expect(
      await searchesOf(ctx, async () => expect((await trpcList(ctx, patient, { refresh: true })).map(slotIdOf)).toContain(slotTwo)),
    ).toBe(1);
  });

  it("a cancellation drops the kept answer: the next read shows the appointment as 'Anulada'", async () => {
    const booked = (await listOf(ctx, patient)).find((appointment) => appointment.canCancel)!;

    const cancelled = await ctx.app.inject({ method: "POST", url: api(`/appointments/${booked.id}/cancel`), headers: bearer(patient) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    expect((await listOf(ctx, patient)).find((appointment) => appointment.id === booked.id)!.status).toBe("Anulada");
  });

  it("refuses an actualizar that is not true or false with a Spanish 400, without asking the agenda", async () => {
    let answer: Awaited<ReturnType<typeof ctx.app.inject>> | undefined;
    const searches = await searchesOf(ctx, async () => {
      answer = await ctx.app.inject({ method: "GET", url: api("/appointments?actualizar=si"), headers: bearer(patient) });
    });
    expect(answer!.statusCode).toBe(400);
    expect(answer!.json().message).toBe(refreshMessage);
    expect(searches).toBe(0);
  });
});

describe("APPOINTMENTS_CACHE_SECONDS=0 keeps nothing", () => {
  let ctx: TestContext;
  let patient: string;
  beforeAll(async () => {
    ctx = await createTestContext({ APPOINTMENTS_CACHE_SECONDS: "0" });
    patient = await ctx.login(demo.patient.rut, demo.patient.password);
  }, 120_000);
  afterAll(() => ctx.close());

  it("asks the agenda on every read, so a booking in the frame shows on the next plain read", async () => {
    expect(await searchesOf(ctx, () => listOf(ctx, patient))).toBe(1);
    const slotId = await bookInTheAgenda(ctx, demo.patient.rut);
    expect(await searchesOf(ctx, async () => expect((await listOf(ctx, patient)).map(slotIdOf)).toContain(slotId))).toBe(1);
  });
});
