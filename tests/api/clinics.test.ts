import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestContext, type TestContext } from "../helpers/test-app.ts";

const schedulingTemplate = "https://agenda.example.cl:8443/reservas?externalCenterId={centerId}";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    SCHEDULING_URL_TEMPLATE: schedulingTemplate,
    LAB_SITE_URL_TEMPLATE: "https://lab.example.cl:{labPort}/resultados",
    IMAGING_VIEWER_URL_TEMPLATE: "https://visor.example.cl/viewer?StudyInstanceUIDs={studyUid}",
  });
});
afterAll(() => ctx.close());

function cspDirectives(header: string | string[] | number | undefined): Map<string, string> {
  return new Map(
    String(header)
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values.join(" ")]),
  );
}

describe("GET /clinics/:key/settings", () => {
  it("answers a clinic's branding, links and scheduling frames without login", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/clinics/portada-rcr/settings") });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(payload).toMatchObject({
      key: "portada-rcr",
      code: 9,
      title: "Clínica Portada",
      logo: "/logos/portada-rcr.svg",
      labSiteUrl: "https://lab.example.cl:8089/resultados",
      imagingLoginUrl: ctx.config.IMAGING_LOGIN_URL,
    });
    expect(payload.frames).toEqual([
      {
        key: "portada-rcr",
        title: "Clínica Portada",
        tabTitle: "Clínica Portada",
        url: "https://agenda.example.cl:8443/reservas?externalCenterId=PORTADA@1",
      },
    ]);
  });

  it("answers maitenes with its three sub-site frames as tabs", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/clinics/maitenes/settings") });
    const { payload } = response.json();
    expect(payload.frames.map((frame: { tabTitle: string; url: string }) => [frame.tabTitle, frame.url])).toEqual([
      ["Melipilla", "https://agenda.example.cl:8443/reservas?externalCenterId=MMELI@10"],
      ["Peñaflor", "https://agenda.example.cl:8443/reservas?externalCenterId=MPENA@12"],
      ["Talagante", "https://agenda.example.cl:8443/reservas?externalCenterId=MTALA@11"],
    ]);
  });

  it("answers 404 with a Spanish message for a clinic outside the catalogue", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/clinics/otra/settings") });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, message: "Clínica no encontrada" });
  });

  it("answers the same settings through tRPC", async () => {
    const input = encodeURIComponent(JSON.stringify({ clinic: "hcs-rcr" }));
    const response = await ctx.app.inject({ method: "GET", url: `/trpc/clinics.settings?input=${input}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.data.frames[0].url).toBe("https://agenda.example.cl:8443/reservas?externalCenterId=HCS@4");
  });
});

describe("Content-Security-Policy", () => {
  it("lets the portal frame exactly the configured scheduling and imaging viewer origins and nothing else", async () => {
    const response = await ctx.app.inject({ method: "GET", url: api("/clinics/maitenes/settings") });
    const csp = cspDirectives(response.headers["content-security-policy"]);
    expect(csp.get("frame-src")).toBe("https://agenda.example.cl:8443 https://visor.example.cl");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("script-src")).toBe("'self'");
  });
});
