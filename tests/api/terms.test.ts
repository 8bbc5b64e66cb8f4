import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ TERMS_VERSION: "2026-test" });
});
afterAll(() => ctx.close());

describe("terms and conditions", () => {
  it("gives each clinic's terms as a real PDF", async () => {
    const link = await ctx.app.inject({ method: "GET", url: api("/term-conditions/file/terminos-condiciones.pdf?clinic=hcs-rcr") });
    expect(link.statusCode).toBe(200);
    const url: string = link.json().payload;
    expect(url).toContain("hcs-rcr");
    const pdf = await ctx.app.inject({ method: "GET", url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
  });

  it("falls back to the default clinic's terms for an unknown clinic", async () => {
    const link = await ctx.app.inject({ method: "GET", url: api("/term-conditions/file/terminos-condiciones.pdf?clinic=nadie") });
    expect(link.json().payload).toContain("maitenes");
  });

  it("records the acceptance with its date and the version of the text", async () => {
    const token = await ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
    const before = await ctx.app.inject({ method: "GET", url: api("/term-conditions/validate-tyc"), headers: bearer(token) });
    expect(before.json()).toBe(false);

    const accepted = await ctx.app.inject({ method: "POST", url: api("/term-conditions/accept"), headers: bearer(token) });
    expect(accepted.statusCode).toBe(200);
    const date = new Date(accepted.json() as string);
    expect(Math.abs(date.getTime() - Date.now())).toBeLessThan(60_000);

    const after = await ctx.app.inject({ method: "GET", url: api("/term-conditions/validate-tyc"), headers: bearer(token) });
    expect(after.json()).toBe(true);
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "15555555-6" }, include: { termsAcceptances: true } });
    expect(user.dateTyc?.toISOString()).toBe(date.toISOString());
    expect(user.termsAcceptances).toHaveLength(1);
    expect(user.termsAcceptances[0]?.version).toBe("2026-test");
  });

  it("refuses to accept or check the terms without a valid token", async () => {
    for (const url of ["/term-conditions/accept", "/term-conditions/validate-tyc"]) {
      const response = await ctx.app.inject({
        method: url.endsWith("accept") ? "POST" : "GET",
        url: api(url),
        headers: bearer("no-es-un-token"),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toMatch(/sesión/);
    }
  });
});
