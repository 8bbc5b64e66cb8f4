import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_CHANGE_CLINIC } from "../../server/contract/clinics.ts";
import { normalizeRut } from "../../server/contract/rut.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// One way to sign a link (server/lib/signed-links.ts), bound to the user's token version: a password change voids every
// download link the user was given before it, bill files and reports alike.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function billFileLink(token: string): Promise<string> {
  const file = await ctx.db.prisma.billFile.findFirstOrThrow({
    where: { bill: { user: { rut: normalizeRut(demo.patient.rut) } } },
    select: { path: true },
  });
  const response = await ctx.app.inject({ method: "GET", url: api(`/files/${file.path}`), headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json().url as string;
}

async function reportLink(token: string): Promise<string> {
  const response = await ctx.app.inject({ method: "GET", url: api("/orders/1234567801"), headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json().payload.urlPDF as string;
}

const open = async (link: string) => (await ctx.app.inject({ method: "GET", url: link })).statusCode;

describe("signed links and the password", () => {
  it("refuses a bill file link and a report link made before a password change, and serves the ones made after it", async () => {
    const token = await ctx.login(demo.patient.rut, demo.patient.password);
    const [fileBefore, reportBefore] = [await billFileLink(token), await reportLink(token)];
    expect(await open(fileBefore)).toBe(200);
    expect(await open(reportBefore)).toBe(200);

    const changed = await ctx.app.inject({
      method: "POST",
      url: api(`/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`),
      headers: bearer(token),
      payload: { oldPassword: demo.patient.password, password: "OtraClave2027x", passwordConfirmation: "OtraClave2027x" },
    });
    expect(changed.statusCode).toBe(200);

    expect(await open(fileBefore)).toBe(403);
    expect(await open(reportBefore)).toBe(404);
    const fresh = await ctx.login(demo.patient.rut, "OtraClave2027x");
    expect(await open(await billFileLink(fresh))).toBe(200);
    expect(await open(await reportLink(fresh))).toBe(200);
  });

  it("does not let a link for one thing open another: a report token on a file, a file's token on another file", async () => {
    const token = await ctx.login(demo.patient.rut, "OtraClave2027x");
    const fileUrl = new URL(await billFileLink(token), "http://portal.invalid");
    const reportToken = new URL(await reportLink(token), "http://portal.invalid").searchParams.get("token")!;
    expect(await open(`${fileUrl.pathname}?${new URLSearchParams({ token: reportToken })}`)).toBe(403);

    const other = await ctx.db.prisma.billFile.findFirstOrThrow({
      where: { path: { not: fileUrl.pathname.split("/").pop() }, bill: { user: { rut: normalizeRut(demo.patient.rut) } } },
      select: { path: true },
    });
    expect(await open(`${api(`/files/download/${other.path}`)}${fileUrl.search}`)).toBe(403);
  });
});
