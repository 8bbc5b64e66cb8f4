import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rutCheckDigit } from "../../server/contract/rut.ts";
import { api, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_RUT: "3", LOGIN_MAX_FAILURES_PER_IP: "6", TRUST_PROXY_HOPS: "0" });
});
afterAll(() => ctx.close());

const attempt = (rut: string, password: string, headers: Record<string, string> = {}, remoteAddress = "10.0.0.1") =>
  ctx.app.inject({ method: "POST", url: api("/auth/new-login"), payload: { rut, password }, headers, remoteAddress });

describe("login rate limits", () => {
  it("blocks a RUT after repeated failures from changing addresses, even with the right password", async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(demo.incomplete.rut, "Incorrecta1", {}, `10.0.1.${i}`)).statusCode).toBe(401);
    const blocked = await attempt(demo.incomplete.rut, demo.incomplete.password, {}, "10.0.1.99");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe("Demasiados intentos fallidos. Espere unos minutos e intente nuevamente.");
  });

  it("blocks an address that tries many RUTs, and a forged X-Forwarded-For does not escape it", async () => {
    const ruts = ["5126663", "6543210", "7654321", "8765432", "9876543", "10987654"].map((body) => `${body}-${rutCheckDigit(body)}`);
    for (const [i, rut] of ruts.entries()) {
      const response = await attempt(rut, "Incorrecta1", { "x-forwarded-for": `192.0.2.${i}` }, "10.0.2.1");
      expect(response.statusCode).toBe(401);
    }
    const blocked = await attempt(demo.patient.rut, demo.patient.password, { "x-forwarded-for": "192.0.2.200" }, "10.0.2.1");
    expect(blocked.statusCode).toBe(429);
    const otherAddress = await attempt(demo.patient.rut, demo.patient.password, {}, "10.0.3.1");
    expect(otherAddress.statusCode).toBe(200);
  });

  it("counts attempts sent at the same moment: no more than the limit get through", async () => {
    const rut = `8765001-${rutCheckDigit("8765001")}`;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(rut, "Incorrecta1", {}, `10.0.4.${i}`)));
    const statuses = answers.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
  });

  it("gives the address its attempt back on a right password, so one person logging in often is not blocked", async () => {
    for (let i = 0; i < 10; i++) expect((await attempt(demo.patient.rut, demo.patient.password, {}, "10.0.5.1")).statusCode).toBe(200);
  });
});
