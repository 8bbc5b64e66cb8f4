import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import type { LinkPurpose } from "../../server/lib/signed-links.ts";
import { createBill } from "../helpers/fixtures.ts";
import { payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { enrolSecondFactor } from "../helpers/second-factor.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 42, point 6 — link lifetime: a download link lives no longer than the session that issued it. For every kind
// of signed link (the Record below names each LinkPurpose, so a new kind does not typecheck until it is listed here)
// and every way a session ends ('Cerrar sesión', 'Cerrar las demás sesiones' from another session, an administrator's
// second-factor reset), the link is issued, opens, the session ends, and the link is refused. The report link mailed to
// the patient's own address is the one that lives on (docs/seguridad.md).

let ctx: TestContext;
let patientId = 0;
let admin = "";
let paidBillId = 0;
/** The patient's second-factor secret while one is set up (the reset removes it). */
let totpSecret: string | undefined;

const login = () => ctx.login(demo.patient.rut, demo.patient.password, "patient", totpSecret ? { totpSecret } : {});
const get = (path: string, token: string) => ctx.app.inject({ method: "GET", url: api(path), headers: bearer(token) });
const open = async (link: string) => (await ctx.app.inject({ method: "GET", url: link })).statusCode;

/** How the patient's browser is handed each kind of link, signed in with `token`. */
const issuers: Record<LinkPurpose, (token: string) => Promise<string>> = {
  "bill-file": async (token) => {
    const file = await ctx.db.prisma.billFile.findFirstOrThrow({ where: { bill: { userId: patientId } }, select: { path: true } });
    return (await get(`/files/${file.path}`, token)).json().url as string;
  },
  "lab-report": async (token) => (await get("/orders/1234567801", token)).json().payload.urlPDF as string,
  "imaging-report": async (token) => (await get("/orders-imaging/pdf/IM1234567801", token)).json().payload as string,
  "payment-receipt": async (token) => (await get(`/payment/receipt/${paidBillId}`, token)).json().payload.url as string,
  "data-export": async (token) => (await get("/patient/data-export", token)).json().payload.latest.downloadUrl as string,
};

/** The ways a session ends, each given the session to end and a second session of the same patient. */
const endings: Record<string, (token: string, other: string) => Promise<void>> = {
  "'Cerrar sesión'": async (token) => {
    const answer = await ctx.app.inject({ method: "POST", url: api("/auth/logout"), headers: bearer(token) });
    expect(answer.statusCode).toBe(200);
  },
  "'Cerrar las demás sesiones' from another session": async (_token, other) => {
    const answer = await ctx.app.inject({ method: "POST", url: api("/auth/sessions/end-others"), headers: bearer(other) });
    expect(answer.statusCode).toBe(200);
  },
  "an administrator's second-factor reset": async () => {
    const answer = await ctx.app.inject({
      method: "POST",
      url: api("/admin/second-factor/reset"),
      headers: bearer(admin),
      payload: { userId: patientId, reason: "Perdió su teléfono y sus códigos de recuperación" },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    totpSecret = undefined;
  },
};

beforeAll(async () => {
  ctx = await createTestContext();
  patientId = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.patient.rut) } })).id;
  admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  const patient = await login();
  // A paid bill (for its receipt) and a ready data export (each session reading it is handed its own link).
  const bill = await createBill(ctx.db.prisma, "12345678-5", { amount: 12_500 });
  const started = await ctx.app.inject({
    method: "POST",
    url: api("/payment/generate-transaction-new-prod"),
    headers: bearer(patient),
    payload: { accountId: bill.id },
  });
  const { token } = started.json().payload as { token: string };
  await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
  const committed = await get(`/payment/new-commit-prod?token_ws=${token}`, patient);
  expect(committed.json().payload.approved).toBe(true);
  paidBillId = bill.id;
  expect((await ctx.app.inject({ method: "POST", url: api("/patient/data-export"), headers: bearer(patient) })).statusCode).toBe(200);
  await ctx.app.deps.background.settled();
  expect((await get("/patient/data-export", patient)).json().payload.latest.status).toBe("ready");
}, 120_000);
afterAll(() => ctx.close());

describe.each(Object.entries(endings))("ending a session by %s voids the links it issued", (_ending, end) => {
  it.each(Object.keys(issuers) as LinkPurpose[])("a %s link", async (purpose) => {
    // The reset needs a second factor to remove.
    if (end === endings["an administrator's second-factor reset"] && !totpSecret)
      totpSecret = (await enrolSecondFactor(ctx.app, await login())).secret;
    const [session, other] = [await login(), await login()];
    const link = await issuers[purpose](session);
    expect(typeof link).toBe("string");
    expect(await open(link)).toBe(200);
    await end(session, other);
    expect([403, 404]).toContain(await open(link));
    // The patient signed in again is handed a link that opens: it is the session that ended, not the document.
    expect(await open(await issuers[purpose](await login()))).toBe(200);
  });
});

describe("the caught mail of this file", () => {
  it("clearing it drops the mail still on its way too (a login's new-device notice), so a test waits for its own mail", async () => {
    await login(); // a login from a new device: its notice is queued after the answer
    await ctx.mail.clear();
    await ctx.mail.settled();
    expect((await ctx.mail.list()).map((mail) => mail.subject)).toEqual([]);
  });
});

describe("a link that is not the session's", () => {
  it("a link of another session of the same patient still opens after one session logs out", async () => {
    const [leaving, staying] = [await login(), await login()];
    const kept = await issuers["lab-report"](staying);
    await endings["'Cerrar sesión'"]!(leaving, staying);
    expect(await open(kept)).toBe(200);
  });

  it("the report link mailed to the patient's own address outlives the session that asked for it", async () => {
    const session = await login();
    const documentLink = await issuers["lab-report"](session);
    await ctx.mail.clear();
    const mailed = await get(`/mail/mailValtek?${new URLSearchParams({ documentLink, clinic: "hcs-rcr" })}`, session);
    expect(mailed.statusCode).toBe(200);
    const patient = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: patientId }, select: { email: true } });
    const mail = await ctx.mail.waitFor(patient.email);
    const path = /\/api\/rcr\/v1\/results\/report\?token=[\w.-]+/.exec(mail.text)?.[0];
    expect(path).toBeDefined();
    await endings["'Cerrar sesión'"]!(session, session);
    expect(await open(documentLink)).toBe(404);
    expect(await open(path!)).toBe(200);
  });
});
