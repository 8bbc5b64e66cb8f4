import type { AddressInfo } from "node:net";
import type { ValidateFunction } from "ajv";
import { Client } from "fhir-kit-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fhirR4Validator } from "../../tests/helpers/fhir-r4-schema.ts";
import { buildMocksApp } from "../app.ts";
import { MailStore } from "../mail/mail-store.ts";
import { RUN_IDENTIFIER_SYSTEM } from "./scheduling-fhir.ts";

// The agenda's FHIR R4 API read and changed as a clinic's integrator would, with a FHIR client (fhir-kit-client) over
// HTTP, every resource checked against the official FHIR R4 JSON schema; the booking pages on the same server show the
// same appointments. Monday 3 March 2025, midday in Chile: the pages offer Tuesday 4 to Saturday 8.

const now = new Date("2025-03-03T15:00:00Z");
const demoRun = "12345678-5";
let validateResource: ValidateFunction;
let client: Client;
let origin = "";
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  validateResource = fhirR4Validator();
  const app = buildMocksApp({ mailStore: new MailStore(), now: () => now });
  await app.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  client = new Client({ baseUrl: `${origin}/agenda/fhir` });
  close = () => app.close();
}, 60_000); // compiling the whole FHIR schema takes seconds
afterAll(() => close());

interface Resource {
  resourceType: string;
  id?: string;
  [key: string]: unknown;
}

function expectValidFhir(resource: Resource) {
  const valid = validateResource(resource);
  expect(valid ? [] : validateResource.errors?.slice(0, 5), `${resource.resourceType}/${resource.id ?? ""}`).toEqual([]);
}

const entriesOf = (bundle: Resource) => ((bundle.entry ?? []) as Array<{ resource: Resource }>).map((entry) => entry.resource);
const appointmentsOf = (bundle: Resource) => entriesOf(bundle).filter((resource) => resource.resourceType === "Appointment");

const searchAppointments = async (searchParams: Record<string, string | number>) =>
  (await client.search({ resourceType: "Appointment", searchParams })) as Resource;

const slotIdsIn = (page: string) => [...page.matchAll(/name="slotId" value="([^"]+)"/g)].map((match) => match[1]!);
const agendaPage = async (centerId: string) => (await fetch(`${origin}/agenda?externalCenterId=${encodeURIComponent(centerId)}`)).text();

async function bookInPages(centerId: string, slotId: string, rut: string) {
  const response = await fetch(`${origin}/agenda/reservar`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ externalCenterId: centerId, slotId, rut, email: "ana@example.cl" }).toString(),
  });
  expect(response.status).toBe(200);
  return /<strong>([A-Z]+-[A-Z0-9]{6})<\/strong>/.exec(await response.text())![1]!;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the server to refuse");
    },
    (error: { response: { status: number; data: Resource } }) => error.response,
  );

describe("the agenda as a FHIR R4 server", () => {
  it("states its capabilities in a valid CapabilityStatement", async () => {
    const capabilities = (await client.capabilityStatement()) as Resource;
    expect(capabilities).toMatchObject({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1" });
    expectValidFhir(capabilities);
  });

  it("finds the demo patient's past and upcoming appointments at several centers by RUN, with professional and place", async () => {
    const bundle = await searchAppointments({
      "patient:identifier": `${RUN_IDENTIFIER_SYSTEM}|${demoRun}`,
      _include: "Appointment:actor",
    });
    expectValidFhir(bundle);
    for (const resource of entriesOf(bundle)) expectValidFhir(resource);

    const appointments = appointmentsOf(bundle);
    const starts = appointments.map((appointment) => Date.parse(String(appointment.start)));
    expect(starts.some((start) => start < now.getTime())).toBe(true);
    expect(starts.some((start) => start > now.getTime())).toBe(true);
    expect(new Set(appointments.map((appointment) => appointment.status))).toEqual(new Set(["booked", "fulfilled", "cancelled"]));
    const places = new Set(appointments.map((appointment) => JSON.stringify(appointment.participant).match(/Location\/([\w-]+)/)![1]));
    expect(places.size).toBeGreaterThanOrEqual(4);
    const included = entriesOf(bundle).filter((resource) => resource.resourceType !== "Appointment");
    expect(included.some((resource) => resource.resourceType === "Practitioner")).toBe(true);
    const location = included.find((resource) => resource.resourceType === "Location")!;
    expect(location.address).toMatchObject({ line: [expect.any(String)], city: expect.any(String) });
    // Another patient's appointments never come with the demo patient's.
    for (const appointment of appointments) expect(JSON.stringify(appointment.participant)).toContain(`"value":"${demoRun}"`);
  });

  it("filters by date and status, and finds nothing for an unknown RUN or another identifier system", async () => {
    const patient = `${RUN_IDENTIFIER_SYSTEM}|${demoRun}`;
    const upcoming = appointmentsOf(await searchAppointments({ "patient:identifier": patient, date: "ge2025-03-03", status: "booked" }));
    expect(upcoming.length).toBe(3);
    for (const appointment of upcoming) expect(appointment.status).toBe("booked");

    const unknown = await searchAppointments({ "patient:identifier": `${RUN_IDENTIFIER_SYSTEM}|11111111-1` });
    const otherSystem = await searchAppointments({ "patient:identifier": `urn:otro|${demoRun}` });
    expect(appointmentsOf(unknown)).toEqual([]);
    expect(appointmentsOf(otherSystem)).toEqual([]);

    const missing = await refusal(searchAppointments({ date: "ge2025-03-03" }));
    expect(missing.status).toBe(400);
    expectValidFhir(missing.data);
    expect((await refusal(searchAppointments({ "patient:identifier": patient, status: "whatever" }))).status).toBe(400);
  });

  it("answers every patient's appointments of a day range without a patient, page by page through Bundle.link next", async () => {
    // The demo patients' appointments in 3 and 5 days (booked) fall in the range, a page of two at a time.
    const searchParams = { date: ["ge2025-03-04", "le2025-03-10"], _include: "Appointment:actor", _count: 2 };
    let bundle = (await client.search({ resourceType: "Appointment", searchParams })) as Resource;
    const total = bundle.total as number;
    expect(total).toBeGreaterThanOrEqual(6);
    const pages: Resource[] = [bundle];
    for (let next = client.nextPage({ bundle: bundle as never }); next; next = client.nextPage({ bundle: bundle as never })) {
      bundle = (await next) as Resource;
      pages.push(bundle);
    }
    expect(pages.length).toBe(Math.ceil(total / 2));
    for (const page of pages) {
      expectValidFhir(page);
      expect(appointmentsOf(page).length).toBeLessThanOrEqual(2);
      expect(page.total).toBe(total);
    }
    const appointments = pages.flatMap(appointmentsOf);
    expect(new Set(appointments.map((appointment) => appointment.id)).size).toBe(total);
    const runs = appointments.map((appointment) => {
      const patient = (appointment.participant as Array<{ actor: { type?: string; identifier?: { system: string; value: string } } }>).find(
        (participant) => participant.actor.type === "Patient",
      )!;
      expect(patient.actor.identifier!.system).toBe(RUN_IDENTIFIER_SYSTEM);
      return patient.actor.identifier!.value;
    });
    expect(new Set(runs)).toEqual(new Set(["12345678-5", "16789012-1", "15555555-6"]));
    for (const appointment of appointments) {
      const start = String(appointment.start).slice(0, 10);
      expect(start >= "2025-03-04" && start <= "2025-03-10").toBe(true);
    }
    // The professional and the place come with each page.
    expect(entriesOf(pages[0]!).some((resource) => resource.resourceType === "Location")).toBe(true);
  });

  it("refuses a search with neither a patient nor a range of days, and a page size past its limit is cut to 100", async () => {
    const incomplete: Array<Record<string, string>> = [{}, { date: "ge2025-03-04" }, { date: "le2025-03-10" }, { status: "booked" }];
    for (const searchParams of incomplete) {
      const refused = await refusal(searchAppointments(searchParams));
      expect(refused.status).toBe(400);
      expectValidFhir(refused.data);
    }
    const bundle = (await client.search({
      resourceType: "Appointment",
      searchParams: { date: ["ge2025-01-01", "le2025-12-31"], _count: 1000 },
    })) as Resource;
    expect((bundle.link as Array<{ relation: string; url: string }>).find((link) => link.relation === "self")!.url).toContain("_count=100");
    expect((await refusal(searchAppointments({ date: "ge2025-01-01", _offset: "-1" }))).status).toBe(400);
  });

  it("shows a booking made in the pages at once, and cancelling it frees the slot in the pages", async () => {
    const run = "9.876.543-3";
    const [slotId] = slotIdsIn(await agendaPage("PORTADA@1"));
    const code = await bookInPages("PORTADA@1", slotId!, run);
    expect(slotIdsIn(await agendaPage("PORTADA@1"))).not.toContain(slotId);

    const found = appointmentsOf(await searchAppointments({ "patient:identifier": `${RUN_IDENTIFIER_SYSTEM}|9876543-3` }));
    expect(found.map((appointment) => appointment.id)).toEqual([code]);
    const appointment = (await client.read({ resourceType: "Appointment", id: code })) as Resource;
    expectValidFhir(appointment);
    expect(appointment).toMatchObject({ status: "booked", start: expect.stringMatching(new RegExp(`^${slotId!.slice(0, 10)}`)) });
    const slotReference = (appointment.slot as Array<{ reference: string }>)[0]!.reference;
    const busy = (await client.read({ resourceType: "Slot", id: slotReference.split("/")[1]! })) as Resource;
    expectValidFhir(busy);
    expect(busy.status).toBe("busy");
    const schedule = (await client.read({
      resourceType: "Schedule",
      id: String((busy.schedule as { reference: string }).reference).split("/")[1]!,
    })) as Resource;
    expectValidFhir(schedule);

    const cancelled = (await client.update({
      resourceType: "Appointment",
      id: code,
      body: { ...appointment, status: "cancelled", cancelationReason: { text: "Anulada por el paciente en el portal" } },
      options: { headers: { "If-Match": `W/"${(appointment.meta as { versionId: string }).versionId}"` } },
    })) as Resource;
    expectValidFhir(cancelled);
    expect(cancelled).toMatchObject({ status: "cancelled", cancelationReason: { text: "Anulada por el paciente en el portal" } });
    expect(slotIdsIn(await agendaPage("PORTADA@1"))).toContain(slotId);
    expect(((await client.read({ resourceType: "Slot", id: busy.id! })) as Resource).status).toBe("free");
  });

  it("records the patient's confirmation as the patient participant accepting", async () => {
    const [, slotId] = slotIdsIn(await agendaPage("ATCAMA@2"));
    const code = await bookInPages("ATCAMA@2", slotId!, "9.876.543-3");
    const appointment = (await client.read({ resourceType: "Appointment", id: code })) as Resource;
    const participant = (appointment.participant as Array<{ actor: { type?: string }; status: string }>).map((entry) =>
      entry.actor.type === "Patient" ? { ...entry, status: "accepted" } : entry,
    );

    const confirmed = (await client.update({ resourceType: "Appointment", id: code, body: { ...appointment, participant } })) as Resource;

    expect(confirmed.status).toBe("booked");
    expect(JSON.stringify(confirmed.participant)).toContain('"type":"Patient","identifier"');
    expect((confirmed.participant as Array<{ status: string }>)[0]!.status).toBe("accepted");
    expect((confirmed.meta as { versionId: string }).versionId).toBe("2");
  });

  it("refuses a cancellation without a reason, of a past appointment, or over a newer version", async () => {
    const bundle = await searchAppointments({ "patient:identifier": `${RUN_IDENTIFIER_SYSTEM}|${demoRun}` });
    const past = appointmentsOf(bundle).find((appointment) => appointment.status === "fulfilled")!;
    const upcoming = appointmentsOf(bundle).find((appointment) => appointment.status === "booked")!;

    const noReason = await refusal(
      client.update({ resourceType: "Appointment", id: upcoming.id!, body: { ...upcoming, status: "cancelled" } }),
    );
    const ofPast = await refusal(
      client.update({
        resourceType: "Appointment",
        id: past.id!,
        body: { ...past, status: "cancelled", cancelationReason: { text: "x" } },
      }),
    );
    const stale = await refusal(
      client.update({
        resourceType: "Appointment",
        id: upcoming.id!,
        body: { ...upcoming, status: "cancelled", cancelationReason: { text: "x" } },
        options: { headers: { "If-Match": 'W/"99"' } },
      }),
    );

    expect([noReason.status, ofPast.status, stale.status]).toEqual([422, 422, 412]);
    for (const answer of [noReason, ofPast, stale]) expectValidFhir(answer.data);
    expect(((await client.read({ resourceType: "Appointment", id: upcoming.id! })) as Resource).status).toBe("booked");
    expect((await refusal(client.read({ resourceType: "Appointment", id: "HCS-NOEXIS" }))).status).toBe(404);
  });

  it("has a down variant answering 503 and a slow one a client gives up on", async () => {
    const down = await fetch(`${origin}/fallas/caida/agenda/fhir/Appointment?patient:identifier=${demoRun}`);
    expect(down.status).toBe(503);
    expectValidFhir((await down.json()) as Resource);

    const slow = fetch(`${origin}/fallas/lenta/agenda/fhir/metadata`, { signal: AbortSignal.timeout(300) });
    await expect(slow).rejects.toThrow(/timeout|aborted/i);
  });
});
