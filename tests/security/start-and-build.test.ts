import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { frameOrigins } from "../../server/http/security-headers.ts";
import { portalEnv } from "../../scripts/start-env.mjs";
import viteConfig from "../../web/vite.config.ts";
import { claveUnicaSettings } from "../../server/features/claveunica/claveunica.config.ts";
import { mockClient } from "../../mocks/claveunica/claveunica-mock.ts";

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

describe("npm start on a fresh clone (no .env): 'Ingresar con ClaveÚnica' against the mock (issue 43)", () => {
  it("configures ClaveÚnica with the mock's issuer on the mocks' port and the mock's client", () => {
    const env = portalEnv({}, "4200", "4999");
    const settings = claveUnicaSettings(loadConfig({ NODE_ENV: "development", ...env }));
    expect(settings).toEqual({ issuer: "http://localhost:4999/claveunica", ...mockClient });
  });

  it("keeps the operator's ClaveÚnica: the State's issuer with their client, or none when the issuer is empty", () => {
    const state = portalEnv(
      { CLAVEUNICA_ISSUER: "https://accounts.claveunica.gob.cl/openid", CLAVEUNICA_CLIENT_ID: "red", CLAVEUNICA_CLIENT_SECRET: "s3creto" },
      "4200",
      "4300",
    );
    expect(claveUnicaSettings(loadConfig({ NODE_ENV: "development", ...state }))).toEqual({
      issuer: "https://accounts.claveunica.gob.cl/openid",
      clientId: "red",
      clientSecret: "s3creto",
    });
    expect(claveUnicaSettings(loadConfig({ NODE_ENV: "development", ...portalEnv({ CLAVEUNICA_ISSUER: "" }, "4200", "4300") }))).toBeNull();
  });
});

describe("the production web build", () => {
  it("does not publish source maps", () => {
    expect(viteConfig.build?.sourcemap ?? false).toBe(false);
  });
});
