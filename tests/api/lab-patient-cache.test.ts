import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMocksApp } from "../../mocks/app.ts";
import { MailStore } from "../../mocks/mail/mail-store.ts";
import { defaultRange } from "../../server/features/results/result-dates.ts";
import { createFhirLabClient } from "../../server/providers/lab/fhir-lab.client.ts";
import { labConfigSchema } from "../../server/providers/lab/lab.config.ts";

// The laboratory client asks the FHIR server for the patient's id once, then reuses it: one call per results page.

let mocks: FastifyInstance;
let base: string;
const patientSearches: string[] = [];

beforeAll(async () => {
  mocks = buildMocksApp({ mailStore: new MailStore() });
  mocks.addHook("onRequest", async (request) => {
    if (request.url.startsWith("/fhir/Patient")) patientSearches.push(request.url);
  });
  await mocks.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(mocks.server.address() as AddressInfo).port}/fhir`;
});
afterAll(() => mocks.close());

const client = (cacheSeconds: number) =>
  createFhirLabClient(labConfigSchema.parse({ LAB_FHIR_BASE_URL: base, LAB_PATIENT_ID_CACHE_SECONDS: String(cacheSeconds) }));

describe("laboratory client: the patient's FHIR id", () => {
  it("is looked up once and reused for the next pages of the same patient", async () => {
    patientSearches.length = 0;
    const lab = client(300);
    const first = await lab.listOrders("12345678-5", defaultRange());
    const second = await lab.listOrders("12345678-5", defaultRange());
    const detail = await lab.getOrder("12345678-5", first[0]!.orderNumber);
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    expect(detail?.orderNumber).toBe(first[0]!.orderNumber);
    expect(patientSearches).toHaveLength(1);
  });

  it("is looked up on every page when the cache is turned off (LAB_PATIENT_ID_CACHE_SECONDS=0)", async () => {
    patientSearches.length = 0;
    const lab = client(0);
    await lab.listOrders("12345678-5", defaultRange());
    await lab.listOrders("12345678-5", defaultRange());
    expect(patientSearches).toHaveLength(2);
  });

  it("is kept per RUT: another patient gets their own lookup and their own orders", async () => {
    patientSearches.length = 0;
    const lab = client(300);
    const mine = await lab.listOrders("12345678-5", defaultRange());
    const theirs = await lab.listOrders("16789012-1", defaultRange());
    expect(patientSearches).toHaveLength(2);
    expect(theirs.map((order) => order.orderNumber)).not.toEqual(mine.map((order) => order.orderNumber));
  });
});
