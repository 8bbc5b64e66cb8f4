import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { productionProblems, productionRefusal } from "./production-guard.ts";

const secret = "n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg";
const real = {
  NODE_ENV: "production",
  JWT_SECRET: secret,
  SMTP_HOST: "smtp.clinica.cl",
  SMTP_PORT: "587",
  WEBPAY_BASE_URL: "https://webpay3g.transbank.cl",
  WEBPAY_COMMERCE_CODE: "597012345678",
  WEBPAY_API_KEY: "0123456789abcdef0123456789abcdef",
  LAB_FHIR_BASE_URL: "https://lis.clinica.cl/fhir",
  SCHEDULING_FHIR_BASE_URL: "https://agenda.clinica.cl/fhir",
  IMAGING_DICOMWEB_BASE_URL: "https://pacs.clinica.cl/dicom-web",
  IMAGING_VIEWER_URL_TEMPLATE: "https://pacs.clinica.cl/viewer?StudyInstanceUIDs={studyUid}",
  IMAGING_LOGIN_URL: "https://pacs.clinica.cl/login",
  SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}",
  LAB_SITE_URL_TEMPLATE: "https://resultados.{alias}.cl/",
  CLINIC_PORTAL_URL_TEMPLATE: "https://mi.{alias}.cl",
};
const problemsWith = (overrides: Record<string, string>) =>
  productionProblems(loadConfig({ ...real, ...overrides })).map((problem) => problem.variable);

describe("production refuses the simulators and Transbank's integration credentials", () => {
  it("accepts a clinic's real providers", () => {
    expect(problemsWith({})).toEqual([]);
  });

  it("names the mail catcher: the compose service, or loopback on its port; a local relay on port 25 is fine", () => {
    expect(problemsWith({ SMTP_HOST: "mocks" })).toEqual(["SMTP_HOST"]);
    expect(problemsWith({ SMTP_HOST: "127.0.0.1", SMTP_PORT: "2525" })).toEqual(["SMTP_HOST"]);
    expect(problemsWith({ SMTP_HOST: "localhost", SMTP_PORT: "2525" })).toEqual(["SMTP_HOST"]);
    expect(problemsWith({ SMTP_HOST: "localhost", SMTP_PORT: "25" })).toEqual([]);
  });

  it("refuses ClaveÚnica's mock issuer, and accepts the State's", () => {
    const client = { CLAVEUNICA_CLIENT_ID: "portal", CLAVEUNICA_CLIENT_SECRET: "secreto-del-estado" };
    expect(problemsWith({ ...client, CLAVEUNICA_ISSUER: "http://localhost:4300/claveunica" })).toEqual(["CLAVEUNICA_ISSUER"]);
    expect(problemsWith({ ...client, CLAVEUNICA_ISSUER: "http://mocks:4300/claveunica" })).toEqual(["CLAVEUNICA_ISSUER"]);
    expect(problemsWith({ ...client, CLAVEUNICA_ISSUER: "https://accounts.claveunica.gob.cl/openid" })).toEqual([]);
  });

  it("refuses to start with a ClaveÚnica issuer but no client id or secret", () => {
    expect(() => loadConfig({ ...real, CLAVEUNICA_ISSUER: "https://accounts.claveunica.gob.cl/openid" })).toThrow(/CLAVEUNICA_CLIENT_ID/);
  });

  it("names every address at the mocks service, the mocks' port on loopback or a /fallas/ path", () => {
    expect(problemsWith({ LAB_FHIR_BASE_URL: "http://mocks:4300/fhir" })).toEqual(["LAB_FHIR_BASE_URL"]);
    expect(problemsWith({ SCHEDULING_FHIR_BASE_URL: "http://localhost:4300/agenda/fhir" })).toEqual(["SCHEDULING_FHIR_BASE_URL"]);
    expect(problemsWith({ SCHEDULING_FHIR_BASE_URL: "http://mocks:4300/agenda/fhir" })).toEqual(["SCHEDULING_FHIR_BASE_URL"]);
    expect(problemsWith({ SCHEDULING_URL_TEMPLATE: "http://localhost:4300/agenda?externalCenterId={centerId}" })).toEqual([
      "SCHEDULING_URL_TEMPLATE",
    ]);
    expect(problemsWith({ IMAGING_VIEWER_URL_TEMPLATE: "http://127.0.0.1:4300/dicom-web/viewer?StudyInstanceUIDs={studyUid}" })).toEqual([
      "IMAGING_VIEWER_URL_TEMPLATE",
    ]);
    expect(problemsWith({ IMAGING_DICOMWEB_BASE_URL: "https://pacs.clinica.cl/fallas/lenta/dicom-web" })).toEqual([
      "IMAGING_DICOMWEB_BASE_URL",
    ]);
    expect(problemsWith({ WEBPAY_FORM_ORIGIN: "http://localhost:4300" })).toEqual(["WEBPAY_FORM_ORIGIN"]);
    // Another service on the clinic's own loopback (a tunnel to the LIS) is not a simulator.
    expect(problemsWith({ LAB_FHIR_BASE_URL: "http://127.0.0.1:8080/fhir" })).toEqual([]);
  });

  it("names Transbank's integration commerce code, API key and environment", () => {
    expect(problemsWith({ WEBPAY_COMMERCE_CODE: "597055555532" })).toEqual(["WEBPAY_COMMERCE_CODE"]);
    expect(problemsWith({ WEBPAY_API_KEY: "579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C" })).toEqual([
      "WEBPAY_API_KEY",
    ]);
    expect(problemsWith({ WEBPAY_BASE_URL: "https://webpay3gint.transbank.cl" })).toEqual(["WEBPAY_BASE_URL"]);
  });

  it("lets a demonstration (PORTAL_DEMO=true) and development run on the defaults, and explains itself in Spanish", () => {
    expect(productionProblems(loadConfig({ NODE_ENV: "production", JWT_SECRET: secret, PORTAL_DEMO: "true" }))).toEqual([]);
    expect(productionProblems(loadConfig({}))).toEqual([]);
    const problems = productionProblems(loadConfig({ NODE_ENV: "production", JWT_SECRET: secret }));
    expect(problems.length).toBeGreaterThanOrEqual(8);
    const message = productionRefusal(problems);
    expect(message).toMatch(/^El portal no se inicia en producción/);
    expect(message).toContain("defina PORTAL_DEMO=true");
    expect(() => loadConfig({ PORTAL_DEMO: "quizás" })).toThrow(/PORTAL_DEMO/);
  });
});
