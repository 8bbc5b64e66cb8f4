import { describe, expect, it } from "vitest";
import { appointmentPatientRun, resourcesByReference, toProviderAppointment, type FhirAppointment } from "./fhir-scheduling.mapping.ts";

const RUN = "http://regcivil.cl/Validacion/RUN";
const patient = { identifierSystem: RUN, rut: "12345678-5" };

const appointment = (status: string, patientStatus = "needs-action", rut = "12345678-5"): FhirAppointment => ({
  resourceType: "Appointment",
  id: "HCS-ABC234",
  meta: { versionId: "3" },
  status,
  start: "2026-12-03T13:30:00.000Z",
  end: "2026-12-03T14:00:00.000Z",
  specialty: [{ text: "Pediatría" }],
  participant: [
    { actor: { type: "Patient", identifier: { system: RUN, value: rut } }, status: patientStatus },
    { actor: { reference: "Practitioner/dr-matias-gonzalez", display: "Dr. M. González" }, status: "accepted" },
    { actor: { reference: "Location/centro-HCS-4", display: "Clínica Sur" }, status: "accepted" },
  ],
});

const included = resourcesByReference({
  resourceType: "Bundle",
  entry: [
    { resource: { resourceType: "Practitioner", id: "dr-matias-gonzalez", name: [{ text: "Dr. Matías González" }] } },
    {
      resource: {
        resourceType: "Location",
        id: "centro-HCS-4",
        name: "Clínica Sur",
        identifier: [{ system: "urn:portal-pacientes:agenda:centro", value: "HCS@4" }],
        address: { line: ["Av. Alemania 0251"], city: "Temuco" },
      },
    },
  ],
});

describe("FHIR Appointment → the patient's appointment", () => {
  it("reads professional and place from the included resources, the centre from the Location's identifier", () => {
    expect(toProviderAppointment(appointment("booked"), included, patient)).toEqual({
      id: "HCS-ABC234",
      start: "2026-12-03T13:30:00.000Z",
      end: "2026-12-03T14:00:00.000Z",
      state: "booked",
      professional: "Dr. Matías González",
      specialty: "Pediatría",
      place: { name: "Clínica Sur", address: "Av. Alemania 0251, Temuco", externalCenterId: "HCS@4" },
      version: "3",
    });
  });

  it("falls back to the participants' display names when nothing is included", () => {
    const mapped = toProviderAppointment(appointment("booked"), new Map(), patient)!;
    expect([mapped.professional, mapped.place.name, mapped.place.address]).toEqual(["Dr. M. González", "Clínica Sur", null]);
  });

  it("maps the FHIR statuses to the patient's states and leaves out the ones that are not appointments", () => {
    const state = (status: string, patientStatus?: string) =>
      toProviderAppointment(appointment(status, patientStatus), included, patient)?.state;
    expect(state("booked")).toBe("booked");
    expect(state("booked", "accepted")).toBe("confirmed");
    expect(state("cancelled")).toBe("cancelled");
    for (const done of ["fulfilled", "arrived", "checked-in"]) expect(state(done)).toBe("fulfilled");
    expect(state("noshow")).toBe("noshow");
    expect(state("entered-in-error")).toBeUndefined();
    expect(state("waitlist")).toBeUndefined();
  });

  it("never maps an appointment whose patient is someone else, or whose RUN comes under another system", () => {
    expect(toProviderAppointment(appointment("booked", "needs-action", "11111111-1"), included, patient)).toBeNull();
    expect(toProviderAppointment(appointment("booked"), included, { identifierSystem: "urn:otro", rut: "12345678-5" })).toBeNull();
  });
});

describe("the patient's RUN of an appointment found by date (reminders)", () => {
  const withPatient = (actor: Record<string, unknown>): FhirAppointment => ({
    ...appointment("booked"),
    participant: [{ actor, status: "needs-action" }, ...appointment("booked").participant!.slice(1)],
  });

  it("reads the RUN from the patient participant's identifier under the configured system", () => {
    expect(appointmentPatientRun(appointment("booked"), RUN)).toBe("12345678-5");
  });

  it("normalizes it as the portal's rut column: no dots, no leading zeros, upper-case check digit", () => {
    const run = (value: string) => appointmentPatientRun(withPatient({ type: "Patient", identifier: { system: RUN, value } }), RUN);
    expect(run("12.345.678-5")).toBe("12345678-5");
    expect(run("09.876.543-3")).toBe("9876543-3");
    expect(run("10.000.013-k")).toBe("10000013-K");
  });

  it("has none for another identifier system, an invalid RUN, another kind of actor, or no patient at all", () => {
    expect(appointmentPatientRun(appointment("booked"), "urn:otro")).toBeNull();
    expect(appointmentPatientRun(withPatient({ type: "Patient", identifier: { system: RUN, value: "12345678-9" } }), RUN)).toBeNull();
    expect(appointmentPatientRun(withPatient({ type: "Practitioner", identifier: { system: RUN, value: "12345678-5" } }), RUN)).toBeNull();
    expect(appointmentPatientRun({ ...appointment("booked"), participant: appointment("booked").participant!.slice(1) }, RUN)).toBeNull();
  });

  it("gives the same appointment the patient's own search gives, once the RUN is known", () => {
    const found = appointment("booked", "accepted", "12.345.678-5");
    const rut = appointmentPatientRun(found, RUN)!;
    expect(toProviderAppointment(found, included, { identifierSystem: RUN, rut })?.state).toBe("confirmed");
  });
});
