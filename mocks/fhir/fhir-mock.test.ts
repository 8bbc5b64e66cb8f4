import type { AddressInfo } from "node:net";
import type { ValidateFunction } from "ajv";
import { Client } from "fhir-kit-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMocksApp } from "../app.ts";
import { MailStore } from "../mail/mail-store.ts";
import { RUN_IDENTIFIER_SYSTEM } from "./fhir-mock.ts";
import { fhirR4Validator } from "../../tests/helpers/fhir-r4-schema.ts";

// The FHIR mock read as a clinic's integrator would: with a FHIR client (fhir-kit-client), every resource it serves
// checked against the official FHIR R4 JSON schema (tests/helpers/fhir-r4-schema.ts, the one the data export's test uses).

let validateResource: ValidateFunction;
let client: Client;
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  validateResource = fhirR4Validator();
  const app = buildMocksApp({ mailStore: new MailStore() });
  await app.listen({ host: "127.0.0.1", port: 0 });
  client = new Client({ baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/fhir` });
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

describe("the FHIR mock as a FHIR R4 server", () => {
  it("states its capabilities in a valid CapabilityStatement at /metadata", async () => {
    const capabilities = (await client.capabilityStatement()) as Resource;
    expect(capabilities).toMatchObject({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1" });
    expectValidFhir(capabilities);
    // The schema does refuse what FHIR R4 does not define.
    expect(validateResource({ ...capabilities, fhirVersion: 4 })).toBe(false);
    expect(validateResource({ ...capabilities, laboratorio: true })).toBe(false);
  });

  it("serves the demo patient, their reports, observations and report PDFs as valid FHIR R4 resources", async () => {
    const patients = (await client.search({
      resourceType: "Patient",
      searchParams: { identifier: `${RUN_IDENTIFIER_SYSTEM}|12345678-5` },
    })) as Resource;
    expectValidFhir(patients);
    const [patient] = entriesOf(patients);
    expect(patient?.resourceType).toBe("Patient");

    const reports = (await client.search({
      resourceType: "DiagnosticReport",
      searchParams: { subject: `Patient/${patient!.id}`, category: "LAB", _include: "DiagnosticReport:result", _count: 200 },
    })) as Resource;
    expectValidFhir(reports);
    const resources = entriesOf(reports);
    for (const resource of resources) expectValidFhir(resource);

    const binaryIds = resources.flatMap((resource) =>
      ((resource.presentedForm ?? []) as Array<{ url: string }>).map((form) => form.url.replace(/^Binary\//, "")),
    );
    expect(binaryIds.length).toBeGreaterThan(3);
    const binary = (await client.read({ resourceType: "Binary", id: binaryIds[0]! })) as Resource;
    expect(binary.contentType).toBe("application/pdf");
    expectValidFhir(binary);

    const missing = await client
      .read({ resourceType: "Binary", id: "informe-000" })
      .catch((error: { response?: { data?: Resource } }) => error);
    expectValidFhir((missing as { response: { data: Resource } }).response.data);
  });

  it("gives the demo patient at least 5 orders over 2 years with repeated analytes in UCUM units, ranges and H/L/N flags", async () => {
    const bundle = (await client.search({
      resourceType: "DiagnosticReport",
      searchParams: { subject: "Patient/pac-12345678", _include: "DiagnosticReport:result", _count: 200 },
    })) as Resource;
    const resources = entriesOf(bundle);
    const reports = resources.filter((resource) => resource.resourceType === "DiagnosticReport");
    const days = reports.map((report) => Date.parse(String(report.issued)));
    expect(reports.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...days) - Math.min(...days)).toBeLessThan(2 * 366 * 86_400_000);

    const observations = resources.filter((resource) => resource.resourceType === "Observation" && resource.valueQuantity);
    const glucose = observations.filter((observation) => JSON.stringify(observation.code).includes('"2345-7"'));
    expect(glucose.length).toBeGreaterThanOrEqual(5);
    for (const observation of observations) {
      expect(observation.valueQuantity).toMatchObject({ system: "http://unitsofmeasure.org", code: expect.any(String) });
      expect(observation.referenceRange).toEqual([
        {
          low: expect.objectContaining({ system: "http://unitsofmeasure.org" }),
          high: expect.objectContaining({ value: expect.any(Number) }),
        },
      ]);
      const [flag] = (observation.interpretation as Array<{ coding: Array<{ system: string; code: string }> }>)[0]!.coding;
      expect(flag!.system).toBe("http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation");
      expect(["H", "L", "N"]).toContain(flag!.code);
    }
    const flags = new Set(observations.map((observation) => JSON.stringify(observation.interpretation).match(/"code":"(\w)"/)![1]));
    expect(flags).toEqual(new Set(["H", "L", "N"]));
  });
});
