import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appointmentMessages, type AppointmentDto } from "../../server/contract/appointments.dto.ts";
import { ACTING_FOR_HEADER } from "../../server/contract/caregivers.ts";
import { dayToDate } from "../../server/contract/days.ts";
import { chileToday } from "../../server/lib/chile-time.ts";
import { userIdByRut } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// 'Mis citas' (issue 44) over REST and tRPC, one service, against the scheduling mock's FHIR R4 API over HTTP. The mock
// seeds the demo patients (dated from today): two past appointments done, one cancelled, one booked in 3 days at
// Clínica Sur (HCS@4), one confirmed in 5 days at Maitenes Peñaflor and one booked in 12 days at Clínica Lircay.
// Maitenes here lets patients cancel only up to 168 hours (7 days) before: its appointment in 5 days is inside the window.

let ctx: TestContext;
let patient: string;
let other: string;
let patientId: number;
let otherId: number;
beforeAll(async () => {
  ctx = await createTestContext({ APPOINTMENT_CANCEL_HOURS_BY_CLINIC: "maitenes=168" });
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
  other = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
  patientId = await userIdByRut(ctx.db.prisma, demo.patient.rut);
  otherId = await userIdByRut(ctx.db.prisma, demo.incomplete.rut);
}, 120_000);
afterAll(() => ctx.close());

const rest = (method: "GET" | "POST", path: string, token: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method, url: api(path), headers: { ...bearer(token), ...headers } });

async function trpc(kind: "query" | "mutation", procedure: string, token: string, input?: unknown) {
  const answer =
    kind === "query"
      ? await ctx.app.inject({
          method: "GET",
          url: `/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers: bearer(token),
        })
      : await ctx.app.inject({ method: "POST", url: `/trpc/${procedure}`, headers: bearer(token), payload: input ?? {} });
  return { statusCode: answer.statusCode, body: answer.json() as { result?: { data: unknown }; error?: { message: string } } };
}

const listOf = async (token: string, headers: Record<string, string> = {}) => {
  const answer = await rest("GET", "/appointments", token, headers);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().payload as AppointmentDto[];
};

const lastAudit = (action: string) => ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action }, orderBy: { id: "desc" } });

const freeSlotsAt = async (centerId: string) =>
  [
    ...(await (await fetch(`${ctx.mocksUrl}/agenda?externalCenterId=${encodeURIComponent(centerId)}`)).text()).matchAll(
      /name="slotId" value="([^"]+)"/g,
    ),
  ].map((match) => match[1]!);

/** The mock's slot id (YYYY-MM-DDTHH:MM in Chile) of an appointment. */
const slotIdOf = (appointment: AppointmentDto) => `${appointment.date.split("-").reverse().join("-")}T${appointment.time}`;

describe("'Mis citas': the list", () => {
  it("shows upcoming appointments first (soonest first), then past ones, in Chile time with professional, specialty and place", async () => {
    const appointments = await listOf(patient);

    expect(appointments.map((appointment) => appointment.upcoming)).toEqual([true, true, true, false, false, false]);
    const starts = appointments.map((appointment) => appointment.start);
    expect(starts.slice(0, 3)).toEqual([...starts.slice(0, 3)].sort());
    expect(starts.slice(3)).toEqual([...starts.slice(3)].sort().reverse());
    expect(appointments.map((appointment) => appointment.status)).toEqual([
      "Reservada",
      "Confirmada",
      "Reservada",
      "Anulada",
      "Realizada",
      "Realizada",
    ]);
    const [first] = appointments;
    expect(first).toMatchObject({
      date: expect.stringMatching(/^\d{2}-\d{2}-\d{4}$/),
      time: expect.stringMatching(/^\d{2}:\d{2}$/),
      professional: expect.stringMatching(/^Dra?\. /),
      specialty: expect.any(String),
      place: { name: "Clínica Sur", address: "Av. Alemania 0251, Temuco", clinic: "Hospital Clínico del Sur" },
      canCancel: true,
      canConfirm: true,
    });
    const chileTime = new Intl.DateTimeFormat("es-CL", {
      timeZone: "America/Santiago",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    expect(first!.time).toBe(chileTime.format(new Date(first!.start)));
    expect(appointments[1]!.place.clinic).toBe("Clínica Los Maitenes");
    // Past and cancelled appointments are neither cancellable nor confirmable.
    for (const appointment of appointments.slice(3)) expect([appointment.canCancel, appointment.canConfirm]).toEqual([false, false]);

    const row = await lastAudit("appointment.list");
    expect([row.actorId, row.patientId]).toEqual([patientId, patientId]);
  });

  it("answers tRPC from the same service as REST", async () => {
    const viaTrpc = await trpc("query", "appointments.list", patient);
    expect(viaTrpc.statusCode).toBe(200);
    expect(viaTrpc.body.result!.data).toEqual(await listOf(patient));
  });

  it("never shows one patient another's appointments, nor lets them reach one by id", async () => {
    const mine = await listOf(patient);
    const theirs = await listOf(other);
    expect(theirs.length).toBe(6);
    expect(theirs.map((appointment) => appointment.id).filter((id) => mine.some((appointment) => appointment.id === id))).toEqual([]);

    const id = mine[0]!.id;
    for (const answer of [
      await rest("GET", `/appointments/${id}/calendar.ics`, other),
      await rest("POST", `/appointments/${id}/cancel`, other),
      await rest("POST", `/appointments/${id}/confirm`, other),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe(appointmentMessages.notFound);
    }
    expect((await trpc("mutation", "appointments.cancel", other, { id })).statusCode).toBe(404);
    expect((await listOf(patient))[0]!.status).toBe("Reservada");
  });
});

describe("'Agregar a mi calendario'", () => {
  it("gives an iCalendar file with the hour in America/Santiago, the place and the professional", async () => {
    const [appointment] = await listOf(patient);
    const answer = await rest("GET", `/appointments/${appointment!.id}/calendar.ics`, patient);

    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(answer.headers["content-disposition"]).toBe(`attachment; filename="cita-${appointment!.id}.ics"`);
    const ics = answer.body.replace(/\r\n /g, "");
    const [day, month, year] = appointment!.date.split("-");
    expect(ics).toContain(`DTSTART;TZID=America/Santiago:${year}${month}${day}T${appointment!.time.replace(":", "")}00`);
    expect(ics).toMatch(/BEGIN:VTIMEZONE\r\nTZID:America\/Santiago/);
    expect(ics).toContain("LOCATION:Clínica Sur\\, Av. Alemania 0251\\, Temuco");
    expect(ics).toContain(`DESCRIPTION:Profesional: ${appointment!.professional}`);
    expect(ics).toMatch(/DTSTAMP:\d{8}T\d{6}Z/);

    const viaTrpc = await trpc("query", "appointments.calendar", patient, { id: appointment!.id });
    expect((viaTrpc.body.result!.data as { content: string }).content).toContain("BEGIN:VEVENT");
  });
});

describe("'Confirmar asistencia' and 'Anular hora'", () => {
  it("confirms attendance to a booked appointment over tRPC, once", async () => {
    const lircay = (await listOf(patient))[2]!;
    const confirmed = await trpc("mutation", "appointments.confirm", patient, { id: lircay.id });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body.result!.data).toMatchObject({ id: lircay.id, status: "Confirmada", canConfirm: false, canCancel: true });
    const again = await rest("POST", `/appointments/${lircay.id}/confirm`, patient);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(appointmentMessages.notConfirmable);
  });

  it("cancels outside the clinic's window and the slot is free again in the agenda's pages", async () => {
    const sur = (await listOf(patient))[0]!;
    expect(await freeSlotsAt("HCS@4")).not.toContain(slotIdOf(sur));

    const answer = await rest("POST", `/appointments/${sur.id}/cancel`, patient);

    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().payload).toMatchObject({ id: sur.id, status: "Anulada", canCancel: false, cancelUntil: null });
    expect(await freeSlotsAt("HCS@4")).toContain(slotIdOf(sur));
    const row = await lastAudit("appointment.cancel");
    expect([row.actorId, row.patientId, row.resourceId, row.outcome]).toEqual([patientId, patientId, sur.id, "ok"]);
    const again = await rest("POST", `/appointments/${sur.id}/cancel`, patient);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(appointmentMessages.notCancellable);
  });

  it("refuses inside the clinic's window with the reason, and leaves the appointment booked", async () => {
    const maitenes = (await listOf(patient)).find(
      (appointment) => appointment.place.clinic === "Clínica Los Maitenes" && appointment.upcoming,
    )!;
    expect(maitenes.canCancel).toBe(false);

    const answer = await rest("POST", `/appointments/${maitenes.id}/cancel`, patient);

    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(appointmentMessages.tooLate(168));
    expect((await listOf(patient)).find((appointment) => appointment.id === maitenes.id)!.status).toBe("Confirmada");
  });

  it("answers 'Hora no encontrada' for an id that names no appointment (404) or cannot be one (400)", async () => {
    for (const [id, status] of [
      ["NO-EXISTE", 404],
      ["a%20b", 400],
      ["x".repeat(65), 400],
    ] as const) {
      const answer = await rest("POST", `/appointments/${id}/cancel`, patient);
      expect(answer.statusCode, id).toBe(status);
      expect(answer.json().message).toBe(appointmentMessages.notFound);
    }
  });
});

describe("caregivers through 'Ver como'", () => {
  it("a link covering 'Agendamiento' lists and cancels the dependent's appointments, each in the dependent's log", async () => {
    const expiresOn = dayToDate(chileToday());
    expiresOn.setUTCDate(expiresOn.getUTCDate() + 30);
    const link = await ctx.db.prisma.caregiverLink.create({
      data: {
        caregiverId: otherId,
        dependentId: patientId,
        relationship: "otro",
        documentSeen: "Poder notarial",
        expiresOn,
        parts: ["agendamiento"],
        createdById: otherId,
      },
    });
    const actingFor = { [ACTING_FOR_HEADER]: String(patientId) };

    const own = await listOf(patient);
    const seen = await listOf(other, actingFor);
    expect(seen.map((appointment) => appointment.id)).toEqual(own.map((appointment) => appointment.id));
    const read = await lastAudit("appointment.list");
    expect([read.actorId, read.patientId]).toEqual([otherId, patientId]);

    const lircay = seen.find((appointment) => appointment.upcoming && appointment.canCancel)!;
    const cancelled = await rest("POST", `/appointments/${lircay.id}/cancel`, other, actingFor);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const change = await lastAudit("appointment.cancel");
    expect([change.actorId, change.patientId]).toEqual([otherId, patientId]);

    await ctx.db.prisma.caregiverLink.update({ where: { id: link.id }, data: { parts: ["resultados"] } });
    expect((await rest("GET", "/appointments", other, actingFor)).statusCode).toBe(403);
  });
});

describe("the agenda down", () => {
  it("answers 502 with the Spanish message, never an empty list", async () => {
    const down = await createTestContext({ SCHEDULING_FHIR_BASE_URL: "{mocks}/fallas/caida/agenda/fhir" });
    try {
      const token = await down.login(demo.patient.rut, demo.patient.password);
      const answer = await down.app.inject({ method: "GET", url: api("/appointments"), headers: bearer(token) });
      expect(answer.statusCode).toBe(502);
      expect(answer.json().message).toBe("El servicio de agenda no está disponible, por favor intente más tarde");
    } finally {
      await down.close();
    }
  }, 120_000);
});
