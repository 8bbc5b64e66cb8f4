import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { formActionOrigins, frameOrigins } from "./security-headers.ts";

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
