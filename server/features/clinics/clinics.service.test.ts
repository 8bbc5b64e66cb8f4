import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { AppError } from "../../lib/errors.ts";
import { schedulingOrigins } from "../../lib/clinic-urls.ts";
import { clinicSettings } from "./clinics.service.ts";

const config = loadConfig({ NODE_ENV: "test" });

describe("clinicSettings", () => {
  it("gives the South clinic its branding, links and one frame carrying HCS@4", () => {
    const settings = clinicSettings(config, "hcs-rcr");
    expect(settings).toMatchObject({
      key: "hcs-rcr",
      code: 7,
      title: "Hospital Clínico del Sur",
      logo: "/logos/hcs-rcr.svg",
      labSiteUrl: "http://localhost:8087/resultados",
      imagingLoginUrl: "http://localhost:4300/imagenologia/login",
      portalUrl: "http://clinicasur.localhost:4200",
    });
    expect(settings.frames).toEqual([
      {
        key: "hcs-rcr",
        title: "Hospital Clínico del Sur",
        tabTitle: "Hospital Clínico del Sur",
        url: "http://localhost:4300/agenda?externalCenterId=HCS@4",
      },
    ]);
  });

  it("gives maitenes three frames with tab titles and their own center ids", () => {
    const { frames } = clinicSettings(config, "maitenes");
    expect(frames.map((frame) => frame.tabTitle)).toEqual(["Melipilla", "Peñaflor", "Talagante"]);
    expect(frames.map((frame) => new URL(frame.url).searchParams.get("externalCenterId"))).toEqual(["MMELI@10", "MPENA@12", "MTALA@11"]);
  });

  it("points every clinic at its own laboratory port and the one shared imaging page", () => {
    const ports = ["hcs-rcr", "puertomontt-rcr", "portada-rcr", "losandes-rcr", "atacama-rcr", "lircay-rcr", "maitenes"].map(
      (key) => new URL(clinicSettings(config, key).labSiteUrl).port,
    );
    expect(new Set(ports).size).toBe(7);
    expect(clinicSettings(config, "lircay-rcr").labSiteUrl).toBe("http://localhost:8092/resultados");
    expect(new Set(["hcs-rcr", "maitenes"].map((key) => clinicSettings(config, key).imagingLoginUrl)).size).toBe(1);
  });

  it("fills per-clinic placeholders of production templates and encodes what a URL cannot carry", () => {
    const production = loadConfig(
      { NODE_ENV: "test" },
      {
        SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/centros/{centerId}/reservar",
        LAB_SITE_URL_TEMPLATE: "https://laboratorio.{alias}.cl:{labPort}/resultados",
        CLINIC_PORTAL_URL_TEMPLATE: "https://mi.{alias}.cl/",
      },
    );
    const settings = clinicSettings(production, "portada-rcr");
    expect(settings.frames[0]?.url).toBe("https://agenda.clinicaportada.cl/centros/PORTADA@1/reservar");
    expect(settings.labSiteUrl).toBe("https://laboratorio.clinicaportada.cl:8089/resultados");
    expect(settings.portalUrl).toBe("https://mi.clinicaportada.cl");
  });

  it("refuses a key outside the catalogue with NOT_FOUND", () => {
    expect(() => clinicSettings(config, "otra-clinica")).toThrowError(AppError);
    expect(() => clinicSettings(config, "otra-clinica")).toThrowError("Clínica no encontrada");
  });
});

describe("schedulingOrigins (CSP frame-src)", () => {
  it("is the single origin of a shared scheduling template", () => {
    expect(schedulingOrigins(config)).toEqual(["http://localhost:4300"]);
  });

  it("lists one origin per clinic when the template puts the clinic in the host", () => {
    const origins = schedulingOrigins({ SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}" });
    expect(origins).toHaveLength(7);
    expect(origins).toContain("https://agenda.clinicamaitenes.cl");
  });

  it("refuses a template that is not an http(s) address", () => {
    expect(() => schedulingOrigins({ SCHEDULING_URL_TEMPLATE: "javascript:alert(1)//{centerId}" })).toThrowError(/SCHEDULING_URL_TEMPLATE/);
    expect(() => schedulingOrigins({ SCHEDULING_URL_TEMPLATE: "agenda/{centerId}" })).toThrowError(/SCHEDULING_URL_TEMPLATE/);
  });
});
