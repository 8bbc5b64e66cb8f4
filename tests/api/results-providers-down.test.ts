import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// The portal pointed at a laboratory that answers 503 and a PACS that never answers (the mocks' /fallas mounts):
// each call ends within the provider timeout with a Spanish message, never hangs.

let down: TestContext;
let slow: TestContext;
beforeAll(async () => {
  [down, slow] = await Promise.all([
    createTestContext({
      LAB_FHIR_BASE_URL: "{mocks}/fallas/caida/fhir",
      IMAGING_DICOMWEB_BASE_URL: "http://127.0.0.1:9/dicom-web",
    }),
    createTestContext({
      LAB_FHIR_BASE_URL: "{mocks}/fallas/lenta/fhir",
      LAB_TIMEOUT_MS: "300",
      IMAGING_DICOMWEB_BASE_URL: "{mocks}/fallas/lenta/dicom-web",
      IMAGING_TIMEOUT_MS: "300",
    }),
  ]);
});
afterAll(() => Promise.all([down.close(), slow.close()]));

async function call(ctx: TestContext, url: string) {
  const token = await ctx.login(demo.patient.rut, demo.patient.password);
  const started = performance.now();
  const response = await ctx.app.inject({ method: "GET", url: api(url), headers: bearer(token) });
  return { response, seconds: (performance.now() - started) / 1000 };
}

describe("laboratory and imaging providers down or slow", () => {
  it("answers 502 with a Spanish message when the laboratory answers with an error", async () => {
    const { response } = await call(down, "/orders");
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      error: "PROVIDER_UNAVAILABLE",
      message: "El servicio de laboratorio no está disponible, por favor intente más tarde",
    });
  });

  it("answers 502 when the imaging server cannot be reached at all", async () => {
    const { response } = await call(down, "/orders-imaging/IM1234567801");
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe("El servicio de imagenología no está disponible, por favor intente más tarde");
  });

  it("gives up on a provider that does not answer within its timeout and answers 504", async () => {
    for (const [url, name] of [
      ["/orders", "laboratorio"],
      ["/orders/1234567801", "laboratorio"],
      ["/orders-imaging", "imagenología"],
    ] as const) {
      const { response, seconds } = await call(slow, url);
      expect(response.statusCode, url).toBe(504);
      expect(response.json()).toMatchObject({
        error: "PROVIDER_TIMEOUT",
        message: `El servicio de ${name} no respondió a tiempo, por favor intente más tarde`,
      });
      // The slow mock would hold the answer for a minute: the portal must not wait for it.
      expect(seconds).toBeLessThan(10);
    }
  });

  it("maps the same failures to tRPC codes the web app can tell apart", async () => {
    const token = await slow.login(demo.patient.rut, demo.patient.password);
    const input = encodeURIComponent(JSON.stringify({ dateFrom: "01/01/2026", dateTo: "31/01/2026" }));
    const response = await slow.app.inject({ method: "GET", url: `/trpc/imaging.studies?input=${input}`, headers: bearer(token) });
    expect(response.statusCode).toBe(504);
    expect(response.json().error.data.code).toBe("GATEWAY_TIMEOUT");
  });
});
