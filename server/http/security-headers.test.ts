import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { contentSecurityPolicy, formActionOrigins, frameOrigins, securityHeaders } from "./security-headers.ts";

describe("CSP origins from the providers' configuration", () => {
  it("lets the imaging viewer be framed and the Webpay form be posted to, and nothing else", () => {
    const config = loadConfig(
      {},
      {
        SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}",
        IMAGING_VIEWER_URL_TEMPLATE: "https://visor.clinica.cl/viewer?StudyInstanceUIDs={studyUid}",
        WEBPAY_BASE_URL: "https://webpay3g.transbank.cl",
      },
    );
    expect(frameOrigins(config)).toContain("https://visor.clinica.cl");
    expect(frameOrigins(config)).toContain("https://agenda.clinicamaitenes.cl");
    expect(formActionOrigins(config)).toEqual(["'self'", "https://webpay3g.transbank.cl"]);
  });

  it("refuses a viewer template or payment address that is not http(s)", () => {
    expect(() => loadConfig({}, { IMAGING_VIEWER_URL_TEMPLATE: "javascript:alert(1)//{studyUid}" })).toThrow(/IMAGING_VIEWER_URL_TEMPLATE/);
    expect(() => loadConfig({}, { WEBPAY_BASE_URL: "ftp://pagos.example" })).toThrow(/WEBPAY_BASE_URL/);
  });
});

describe("security headers computed once", () => {
  it("sends exactly the headers helmet sent, with the CSP built from the configuration", () => {
    const config = loadConfig({}, { IMAGING_VIEWER_URL_TEMPLATE: "https://visor.clinica.cl/viewer?StudyInstanceUIDs={studyUid}" });
    const headers = securityHeaders(config);
    expect(Object.keys(headers).sort()).toEqual([
      "content-security-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "origin-agent-cluster",
      "referrer-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-frame-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
    ]);
    expect(headers["content-security-policy"]).toMatch(
      /^default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;font-src 'self' data:;connect-src 'self';frame-src [^;]*https:\/\/visor\.clinica\.cl[^;]*;object-src 'none';base-uri 'none';frame-ancestors 'none';form-action 'self' [^;]+$/,
    );
    expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("forbids framing the portal in both headers alike: CSP frame-ancestors 'none' and X-Frame-Options DENY", () => {
    const headers = securityHeaders(loadConfig({}, {}));
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
  });

  it("asks browsers to upgrade insecure requests in production over https only", () => {
    expect(contentSecurityPolicy(loadConfig({}, {}))).not.toContain("upgrade-insecure-requests");
    const secret = randomBytes(48).toString("base64");
    const production = loadConfig({}, { NODE_ENV: "production", JWT_SECRET: secret, CLINIC_PORTAL_URL_TEMPLATE: "https://mi.{alias}.cl" });
    expect(contentSecurityPolicy(production).endsWith(";upgrade-insecure-requests")).toBe(true);
    // A plain-http trial (the demo compose's http://{alias}.localhost): upgrading would send the scripts to https and
    // leave a blank page.
    const trial = loadConfig({}, { NODE_ENV: "production", JWT_SECRET: secret, CLINIC_PORTAL_URL_TEMPLATE: "http://{alias}.localhost" });
    expect(contentSecurityPolicy(trial)).not.toContain("upgrade-insecure-requests");
  });
});
