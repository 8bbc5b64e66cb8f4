import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestContext, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("security headers", () => {
  it("sends HSTS for a year, nosniff, no caching of API answers and a strict CSP", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/health") });
    expect(response.headers["strict-transport-security"]).toMatch(/max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(String(response.headers["strict-transport-security"]))![1])).toBeGreaterThanOrEqual(31_536_000);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cache-control"]).toBe("no-store");
    const csp = String(response.headers["content-security-policy"]);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self'", "form-action 'self'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-eval");
  });

  it("gives no CORS permission to a foreign origin", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/auth/new-login"),
      headers: { origin: "https://evil.example" },
      payload: {},
    });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await ctx.app.inject({
      method: "OPTIONS",
      url: api("/auth/new-login"),
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
