import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 24, "laboratorio lento, luego caído": the laboratory (and imaging) first answers in 10 s, then not at all. The
// results pages answer within 3 s with the Spanish message, and after a burst of failures the portal stops calling
// the provider for a while (circuit breaker) instead of piling requests on it; when the provider is back, so are the
// results. The provider is the mocks' switchable one (/fallas/control), changed while the portal runs.

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({
    LAB_FHIR_BASE_URL: "{mocks}/fallas/control/fhir",
    IMAGING_DICOMWEB_BASE_URL: "{mocks}/fallas/control/dicom-web",
    PROVIDER_BREAKER_MIN_CALLS: "3",
    PROVIDER_BREAKER_OPEN_SECONDS: "2",
    // Every page reaches the provider: this file is about timeouts and the breaker, not the 60 s answer cache.
    RESULTS_CACHE_SECONDS: "0",
  });
  token = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const setProvider = async (modo: "normal" | "lenta" | "caida") => {
  const response = await fetch(`${ctx.mocksUrl}/fallas/control?modo=${modo}&ms=10000`, { method: "PUT" });
  expect(response.status).toBe(200);
};
const providerRequests = async () => ((await (await fetch(`${ctx.mocksUrl}/fallas/control`)).json()) as { requests: number }).requests;

async function page(url: string) {
  const started = performance.now();
  const response = await ctx.app.inject({ method: "GET", url: api(url), headers: bearer(token) });
  return { status: response.statusCode, message: (response.json() as { message?: string }).message, ms: performance.now() - started };
}

describe("a laboratory that turns slow, then falls", () => {
  it("answers the lab page within 3 s with the Spanish message while the laboratory takes 10 s", async () => {
    expect((await page("/orders")).status).toBe(200); // healthy first (and the patient's FHIR id is known)
    await setProvider("lenta");
    const slow = await page("/orders");
    expect(slow).toMatchObject({ status: 504, message: "El servicio de laboratorio no respondió a tiempo, por favor intente más tarde" });
    expect(slow.ms).toBeLessThan(3_000);
  });

  it("stops calling it after a burst of failures and answers at once, then recovers when it is back", async () => {
    await setProvider("caida");
    for (let i = 0; i < 3; i++) expect((await page("/orders")).status).toBe(502);
    const before = await providerRequests();
    const answers = await Promise.all(Array.from({ length: 20 }, () => page("/orders")));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 502, message: "El servicio de laboratorio no está disponible, por favor intente más tarde" });
      expect(answer.ms).toBeLessThan(1_000);
    }
    expect(await providerRequests()).toBe(before); // the open circuit did not call the laboratory at all

    await setProvider("normal");
    await new Promise((resolve) => setTimeout(resolve, 2_200)); // PROVIDER_BREAKER_OPEN_SECONDS
    expect((await page("/orders")).status).toBe(200);
    expect((await page("/orders")).status).toBe(200);
  });

  it("does the same for imaging", async () => {
    expect((await page("/orders-imaging")).status).toBe(200);
    await setProvider("lenta");
    const slow = await page("/orders-imaging");
    expect(slow.status).toBe(504);
    expect(slow.ms).toBeLessThan(3_000);
    await setProvider("caida");
    for (let i = 0; i < 3; i++) await page("/orders-imaging");
    const before = await providerRequests();
    const open = await page("/orders-imaging");
    expect(open).toMatchObject({ status: 502, message: "El servicio de imagenología no está disponible, por favor intente más tarde" });
    expect(await providerRequests()).toBe(before);
    await setProvider("normal");
  });
});
