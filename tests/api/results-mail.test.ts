import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { plainRutOf } from "../helpers/fixtures.ts";

let ctx: TestContext;
let patient: string;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const mailValtek = (query: Record<string, string>, token = patient) =>
  ctx.app.inject({ method: "GET", url: api(`/mail/mailValtek?${new URLSearchParams(query).toString()}`), headers: bearer(token) });

async function ownReportLink(): Promise<string> {
  const response = await ctx.app.inject({ method: "GET", url: api("/orders/1234567801"), headers: bearer(patient) });
  return response.json().payload.urlPDF as string;
}

describe("e-mailing a report (GET mail/mailValtek)", () => {
  it("sends the report only to the address stored for the user, whatever e-mail the call carries", async () => {
    await ctx.mail.clear();
    const response = await mailValtek({ email: "otra.persona@correo.cl", documentLink: await ownReportLink(), clinic: "hcs-rcr" });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toBe(true);

    const mail = await ctx.mail.waitFor("paciente@portalpacientes.cl");
    expect(mail.text).toContain("orden 1234567801");
    expect(await ctx.mail.list("otra.persona@correo.cl")).toEqual([]);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    const pdf = await ctx.app.inject({ method: "GET", url: new URL(link).pathname + new URL(link).search });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("refuses a link that is not one of the user's own reports, and sends nothing", async () => {
    await ctx.mail.clear();
    const other = await ctx.login(plainRutOf(17_000_000), "Paciente2026");
    const theirs = await ctx.app.inject({ method: "GET", url: api("/orders/1700000001"), headers: bearer(other) });
    const foreignLinks = [
      theirs.json().payload.urlPDF as string,
      `${ctx.mocksUrl}/fhir/Binary/informe-1234567801`,
      "https://example.com/informe.pdf",
      "/api/rcr/v1/results/report?token=a.b.c",
    ];
    for (const documentLink of foreignLinks) {
      const response = await mailValtek({ documentLink });
      expect(response.statusCode, documentLink).toBe(404);
      expect(response.json().message).toBe("Informe no encontrado");
    }
    expect(await ctx.mail.list()).toEqual([]);
  });

  it("needs a document link, and is for patients only", async () => {
    expect((await mailValtek({})).statusCode).toBe(400);
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    expect((await mailValtek({ documentLink: await ownReportLink() }, admin)).statusCode).toBe(403);
  });

  it("records the mailing with the order it carried", async () => {
    const user = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "12345678-5" } });
    const event = await ctx.db.prisma.auditEvent.findFirst({ where: { actorId: user.id, action: "results.report.mail" } });
    expect(event).toMatchObject({ resource: "LabOrder", resourceId: "1234567801", patientId: user.id, outcome: "ok" });
  });
});
