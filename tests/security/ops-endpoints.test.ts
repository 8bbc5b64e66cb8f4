import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../server/app.ts";
import { bearer } from "../helpers/test-app.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";

// The routes outside the /api/rcr/v1 contract (issue 15): the permission matrix covers the contract and tRPC; these are
// checked here. /healthz and /readyz are public and say nothing about anyone; /metrics is not public behind the proxy.

let security: SecurityContext;
beforeAll(async () => {
  security = await createSecurityContext();
});
afterAll(() => security.ctx.close());

const apiDocs = ["GET /api/docs", "GET /api/docs/openapi.json", "GET /api/docs/swagger-init.js", "GET /api/docs/assets/:file"];
// The browser's way to ClaveÚnica and back (issue 43); their checks: tests/security/claveunica-attacks.test.ts.
const claveUnicaFlow = ["GET /claveunica/ingresar", "GET /claveunica/retorno"];
const outsideContract = [
  "GET /healthz",
  "GET /readyz",
  "GET /metrics",
  "POST /dashboard/my-bills",
  "GET /trpc/:path",
  ...apiDocs,
  ...claveUnicaFlow,
];

describe("routes outside the REST contract", () => {
  it("are exactly the known ones (a new one must be added here, with its own checks)", () => {
    const routes = security.ctx.app.routeTable
      .filter((route) => !route.url.startsWith(API_PREFIX) && route.method !== "HEAD" && route.method !== "OPTIONS")
      .filter((route) => !route.url.startsWith("/trpc/") || route.method === "GET")
      // The built web app's files (when dist/web exists), served by @fastify/static one route per file.
      .filter((route) => route.access !== undefined || route.url.startsWith("/trpc/"))
      .map((route) => `${route.method} ${route.url}`);
    expect(routes.sort()).toEqual([...outsideContract].sort());
    for (const route of security.ctx.app.routeTable.filter((r) => ["/healthz", "/readyz", "/metrics"].includes(r.url)))
      expect(route.access, route.url).toBe("public");
  });

  it("/healthz and /readyz answer anyone, through the proxy too, with nothing but their status", async () => {
    for (const url of ["/healthz", "/readyz"]) {
      const response = await security.ctx.app.inject({ method: "GET", url, headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(response.statusCode, url).toBe(200);
      expect(Object.keys(response.json()).sort(), url).toEqual(url === "/healthz" ? ["status"] : ["checks", "status"]);
    }
  });

  it("/api/docs answers anyone the same document, which describes calls and never holds anyone's data", async () => {
    const anonymous = await security.ctx.app.inject({ method: "GET", url: "/api/docs/openapi.json" });
    expect(anonymous.statusCode).toBe(200);
    for (const token of Object.values(security.tokens)) {
      const signedIn = await security.ctx.app.inject({ method: "GET", url: "/api/docs/openapi.json", headers: bearer(token) });
      expect(signedIn.body).toBe(anonymous.body);
    }
    expect(anonymous.body).not.toMatch(/\d{1,2}\.\d{3}\.\d{3}-[\dkK]|@[a-z0-9-]+\.(cl|com)/);
    for (const route of security.ctx.app.routeTable.filter((r) => r.url.startsWith("/api/docs")))
      expect(route.access, route.url).toBe("public");
  });

  it("/metrics through the proxy answers 404 to every role: a session is no key to it", async () => {
    for (const token of [undefined, ...Object.values(security.tokens)]) {
      const response = await security.ctx.app.inject({
        method: "GET",
        url: "/metrics",
        remoteAddress: "10.0.0.10",
        headers: { "x-forwarded-for": "203.0.113.9", ...(token ? bearer(token) : {}) },
      });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain("portal_");
    }
  });
});
