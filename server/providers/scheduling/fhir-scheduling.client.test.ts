import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookingLedger } from "../../../mocks/scheduling/bookings.ts";
import { schedulingCenters } from "../../../mocks/scheduling/centers.ts";
import { checkDigitFor } from "../../../mocks/scheduling/rut.ts";
import { AgendaSearchLog, RUN_IDENTIFIER_SYSTEM, schedulingFhir } from "../../../mocks/scheduling/scheduling-fhir.ts";
import { slotsForDay } from "../../../mocks/scheduling/slots.ts";
import { createFhirSchedulingClient, DATE_SEARCH_PAGE_SIZE } from "./fhir-scheduling.client.ts";

// The reminders' search by date against the agenda mock's FHIR API over HTTP: a day with more appointments than one
// page holds is read whole, in as many searches as pages, whatever the number of patients.

const now = new Date("2025-03-03T15:00:00Z");
const DAY = "2025-03-05";
const BOOKED = 2 * DATE_SEARCH_PAGE_SIZE + 30; // three pages
const ledger = new BookingLedger();
const searchLog = new AgendaSearchLog();
const runOf = (index: number) => `${20_000_000 + index}-${checkDigitFor(String(20_000_000 + index))}`;
let close: () => Promise<void> = async () => {};
let client: ReturnType<typeof createFhirSchedulingClient>;

beforeAll(async () => {
  for (let index = 0; index < BOOKED; index++) {
    const center = schedulingCenters[index % schedulingCenters.length]!;
    const slots = slotsForDay(center.externalCenterId, DAY);
    ledger.book(center.externalCenterId, slots[index % slots.length]!, { rut: runOf(index), email: `p${index}@example.cl` }, { now });
  }
  // Outside the days asked for.
  ledger.book("HCS@4", slotsForDay("HCS@4", "2025-03-09")[0]!, { rut: runOf(BOOKED), email: "fuera@example.cl" }, { now });
  const app = Fastify();
  await app.register(schedulingFhir, { prefix: "/agenda/fhir", ledger, now: () => now, searchLog });
  await app.listen({ host: "127.0.0.1", port: 0 });
  client = createFhirSchedulingClient({
    SCHEDULING_FHIR_BASE_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/agenda/fhir`,
    SCHEDULING_PATIENT_IDENTIFIER_SYSTEM: RUN_IDENTIFIER_SYSTEM,
    SCHEDULING_TIMEOUT_MS: 5_000,
    SCHEDULING_FHIR_BEARER_TOKEN: undefined,
    SCHEDULING_FHIR_USERNAME: undefined,
    SCHEDULING_FHIR_PASSWORD: undefined,
  });
  close = () => app.close();
});
afterAll(() => close());

describe("every patient's appointments of some days, from the agenda", () => {
  it("follows the next pages to read every appointment of the days asked, each with its patient's RUN, in one search", async () => {
    const before = searchLog.searches.date;
    const appointments = await client.appointmentsBetween(DAY, DAY);

    expect(searchLog.searches.date - before).toBe(Math.ceil(BOOKED / DATE_SEARCH_PAGE_SIZE));
    expect(searchLog.searches.patient).toBe(0);
    expect(appointments).toHaveLength(BOOKED);
    expect(new Set(appointments.map((appointment) => appointment.rut))).toEqual(
      new Set(Array.from({ length: BOOKED }, (_, index) => runOf(index))),
    );
    expect(appointments.map((appointment) => appointment.start)).toEqual(appointments.map((appointment) => appointment.start).sort());
    for (const appointment of appointments) {
      expect(appointment.start.slice(0, 10)).toBe(DAY);
      expect(appointment).toMatchObject({ state: "booked", place: { externalCenterId: expect.stringMatching(/@/) } });
      expect(appointment.place.address).toBeTruthy();
    }
  });

  it("finds nothing on days without appointments, in a single search", async () => {
    const before = searchLog.searches.date;
    expect(await client.appointmentsBetween("2025-04-01", "2025-04-02")).toEqual([]);
    expect(searchLog.searches.date - before).toBe(1);
  });

  it("refuses a next page on another server, so the agenda's credentials never leave for it", async () => {
    const bundle = (next?: string) => ({
      resourceType: "Bundle",
      type: "searchset",
      link: next ? [{ relation: "next", url: next }] : [],
      entry: [],
    });
    const other = Fastify();
    const otherCalls: Array<string | undefined> = [];
    other.get("/agenda/fhir/Appointment", async (request, reply) => {
      otherCalls.push(request.headers.authorization);
      return reply.type("application/fhir+json").send(bundle());
    });
    await other.listen({ host: "127.0.0.1", port: 0 });
    const agenda = Fastify();
    agenda.get("/agenda/fhir/Appointment", async (_request, reply) =>
      reply
        .type("application/fhir+json")
        .send(bundle(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}/agenda/fhir/Appointment?_offset=100`)),
    );
    await agenda.listen({ host: "127.0.0.1", port: 0 });
    try {
      const foreign = createFhirSchedulingClient({
        SCHEDULING_FHIR_BASE_URL: `http://127.0.0.1:${(agenda.server.address() as AddressInfo).port}/agenda/fhir`,
        SCHEDULING_PATIENT_IDENTIFIER_SYSTEM: RUN_IDENTIFIER_SYSTEM,
        SCHEDULING_TIMEOUT_MS: 5_000,
        SCHEDULING_FHIR_BEARER_TOKEN: "secreto",
        SCHEDULING_FHIR_USERNAME: undefined,
        SCHEDULING_FHIR_PASSWORD: undefined,
      });
      await expect(foreign.appointmentsBetween(DAY, DAY)).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
      expect(otherCalls).toEqual([]);
    } finally {
      await agenda.close();
      await other.close();
    }
  });
});
