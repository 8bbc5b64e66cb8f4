import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { frameOrigins } from "../../server/http/security-headers.ts";
import { portalEnv } from "../../scripts/start-env.mjs";
import viteConfig from "../../web/vite.config.ts";

// Issue 9, finding 7 (low): what npm start and the production build hand out.

describe("npm start with another mocks port", () => {
  it("points the scheduling and imaging addresses, and so the CSP frame-src, at MOCKS_HTTP_PORT", () => {
    const env = portalEnv({ MOCKS_HTTP_PORT: "4999" }, "4200", "4999");
    expect(env.SCHEDULING_URL_TEMPLATE).toBe("http://localhost:4999/agenda?externalCenterId={centerId}");
    expect(env.IMAGING_LOGIN_URL).toBe("http://localhost:4999/imagenologia/login");
    expect(frameOrigins(loadConfig({ NODE_ENV: "test", ...env }))).toEqual(["http://localhost:4999"]);
  });

  it("keeps addresses the operator set", () => {
    const env = portalEnv({ SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}" }, "4200", "4999");
    expect(env.SCHEDULING_URL_TEMPLATE).toBe("https://agenda.{alias}.cl/?c={centerId}");
  });
});

describe("the production web build", () => {
  it("does not publish source maps", () => {
    expect(viteConfig.build?.sourcemap ?? false).toBe(false);
  });
});
