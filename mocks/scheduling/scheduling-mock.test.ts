import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookingLedger } from "./bookings.ts";
import { frameAncestorsPolicy, schedulingMock } from "./scheduling-mock.ts";
import { slotsForDay } from "./slots.ts";

// Monday 3 March 2025, midday in Chile: the agenda covers Tuesday 4 to Saturday 8.
const fixedNow = () => new Date("2025-03-03T15:00:00Z");
const validRut = "12.345.678-5";

let app: FastifyInstance;

beforeEach(async () => {
  app = Fastify();
  // An empty agenda: the demo patients' seeded appointments would take some of the slots counted here.
  await app.register(schedulingMock, { now: fixedNow, frameAncestors: ["https://portal.clinica.example.cl"], ledger: new BookingLedger() });
});

afterEach(async () => {
  await app.close();
});

function getAgenda(externalCenterId: string) {
  return app.inject({ method: "GET", url: `/agenda?externalCenterId=${encodeURIComponent(externalCenterId)}` });
}

function slotIdsIn(page: string): string[] {
  return [...page.matchAll(/name="slotId" value="([^"]+)"/g)].map((match) => match[1] ?? "");
}

function book(fields: Record<string, string>) {
  return app.inject({
    method: "POST",
    url: "/agenda/reservar",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe("scheduling mock", () => {
  it("lists four free slots per day for the next five days along with the center", async () => {
    const response = await getAgenda("HCS@4");

    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("<title>Reserva de horas – Clínica Sur</title>");
    expect(response.body).toContain("Centro HCS@4");
    const slotIds = slotIdsIn(response.body);
    expect(slotIds).toHaveLength(20);
    const dates = new Set(slotIds.map((id) => id.slice(0, 10)));
    expect([...dates]).toEqual(["2025-03-04", "2025-03-05", "2025-03-06", "2025-03-07", "2025-03-08"]);
    expect(response.body).toContain("Reservar");
  });

  it("offers the same slots for a given center and date, within office hours", () => {
    const slots = slotsForDay("ANDES@5", "2025-03-04");

    expect(slotsForDay("ANDES@5", "2025-03-04")).toEqual(slots);
    expect(slots).toHaveLength(4);
    for (const slot of slots) {
      expect(slot.time >= "08:00" && slot.time <= "17:30").toBe(true);
      expect(slot.time).toMatch(/^\d{2}:(00|30)$/);
      expect(slot.specialty).not.toBe("");
      expect(slot.doctor).not.toBe("");
    }
  });

  it("answers 400 'Centro no encontrado' for an unknown or missing center", async () => {
    const unknown = await getAgenda("NOEXISTE@99");
    const missing = await app.inject({ method: "GET", url: "/agenda" });

    for (const response of [unknown, missing]) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain("Centro no encontrado");
    }
    expect(unknown.body).toContain("NOEXISTE@99");
  });

  it("books a slot, confirms it and removes it only from that center's list", async () => {
    const [slotId] = slotIdsIn((await getAgenda("HCS@4")).body);
    if (!slotId) throw new Error("Expected at least one slot");

    const response = await book({ externalCenterId: "HCS@4", slotId, rut: validRut, email: "ana@example.cl" });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Hora reservada");
    expect(response.body).toMatch(/HCS-[A-Z0-9]{6}/);
    expect(response.body).toContain("12.345.678-5");
    expect(response.body).toContain("ana@example.cl");
    expect(response.body).toContain(slotId.slice(11));
    expect(slotIdsIn((await getAgenda("HCS@4")).body)).not.toContain(slotId);
    expect(slotIdsIn((await getAgenda("HCS@4")).body)).toHaveLength(19);
    expect(slotIdsIn((await getAgenda("PMONTT@6")).body)).toHaveLength(20);
  });

  it("refuses to book a slot that is already taken", async () => {
    const [slotId] = slotIdsIn((await getAgenda("LIRCAY@3")).body);
    if (!slotId) throw new Error("Expected at least one slot");
    const booking = { externalCenterId: "LIRCAY@3", slotId, rut: validRut, email: "ana@example.cl" };
    await book(booking);

    const second = await book(booking);

    expect(second.statusCode).toBe(409);
    expect(second.body).toContain("La hora seleccionada ya no está disponible");
  });

  it("rejects an invalid booking with a Spanish error page", async () => {
    const response = await book({ externalCenterId: "HCS@4", slotId: "mañana", rut: "12.345.678-9", email: "no-es-correo" });

    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("No se pudo reservar la hora");
    expect(response.body).toContain("La hora seleccionada no es válida");
    expect(response.body).toContain("El RUT ingresado no es válido");
    expect(response.body).toContain("El correo electrónico no es válido");
  });

  it("rejects a booking with missing fields or an unknown center", async () => {
    const empty = await book({});
    const unknownCenter = await book({ externalCenterId: "X@1", slotId: "2025-03-04T08:00", rut: validRut, email: "a@b.cl" });

    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Ingrese el RUT del paciente");
    expect(unknownCenter.statusCode).toBe(400);
    expect(unknownCenter.body).toContain("Centro no encontrado");
  });

  it("lets the portal origins frame its pages through CSP frame-ancestors", async () => {
    for (const response of [await getAgenda("HCS@4"), await getAgenda("NOEXISTE@1"), await book({})]) {
      const policy = response.headers["content-security-policy"];
      expect(policy).toMatch(/^frame-ancestors /);
      for (const origin of [
        "http://localhost:4200",
        "http://*.localhost:4200",
        "http://127.0.0.1:4200",
        "https://portal.clinica.example.cl",
      ]) {
        expect(policy).toContain(` ${origin}`);
      }
      expect(response.headers["x-frame-options"]).toBeUndefined();
    }
  });

  it("refuses extra frame origins that could inject other CSP directives", () => {
    expect(() => frameAncestorsPolicy(["https://ok.example.cl; script-src *"])).toThrow();
  });

  it("prefills and escapes patient data passed in the query string", async () => {
    const response = await app.inject({
      method: "GET",
      url: `/agenda?externalCenterId=HCS%404&rut=${encodeURIComponent('"><script>x</script>')}&email=ana%40example.cl`,
    });

    expect(response.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(response.body).toContain('value="ana@example.cl"');
  });
});
