import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "../../server/contract/roles.ts";
import { NOTICE_QUEUE_NAME } from "../../server/features/notices/notice-jobs.ts";
import { NEW_BILL_SUBJECT, NEW_RESULT_SUBJECT } from "../../server/lib/notice-mails.ts";
import { setNoticePreferences, turnOffAllNotices } from "../../server/lib/notice-preferences.ts";
import { labOrdersFor } from "../../mocks/fhir/lab-orders.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type CaughtMessage, type TestContext } from "../helpers/test-app.ts";

// E-mail notices of new results and bills (issue 31), through the durable job engine and the mail catcher of mocks/.

const DEMO_EMAIL = "paciente@portalpacientes.cl";
const QUIET_EMAIL = "silencio@correo.cl";
const QUIET_RUT = rutOf(17_500_001);

let ctx: TestContext;
let patient: string;
let admin: string;
let quietId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
  admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  quietId = await insertUser(ctx.db.prisma, { rut: QUIET_RUT, email: QUIET_EMAIL, roleType: Role.patient, patientClinics: ["hcs-rcr"] });
  await turnOffAllNotices(ctx.db.prisma, quietId);
  // The other seeded patients (no address here) are left out, so the mail catcher holds only this file's notices.
  await ctx.db.prisma.user.updateMany({
    where: { roleType: Role.patient, rut: { notIn: ["12345678-5", QUIET_RUT.replace(/\./g, "")] } },
    data: { email: "" },
  });
}, 60_000);
afterAll(() => ctx.close());

const sql = (text: string, values: unknown[] = []) => ctx.db.executeSql(text, values);
const completedRuns = async () =>
  Number(
    (
      (await sql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'completed'", [NOTICE_QUEUE_NAME])).rows[0] as {
        n: number;
      }
    ).n,
  );

/** Queues a run through the job engine and waits until the job has completed and its mail has left the queue. */
async function runNoticeJob() {
  const before = await completedRuns();
  await ctx.app.deps.noticeJobs!.runNow();
  await expect.poll(completedRuns, { timeout: 60_000, interval: 250 }).toBeGreaterThan(before);
  await expect.poll(() => ctx.app.deps.mailQueue!.pending(), { timeout: 20_000, interval: 250 }).toBe(0);
}

const resultMails = async (to: string) => (await ctx.mail.list(to)).filter((mail) => mail.subject.includes(NEW_RESULT_SUBJECT));

function expectNoHealthData(mail: CaughtMessage) {
  for (const order of labOrdersFor("12345678-5", new Date())) {
    expect(mail.text).not.toContain(order.orderNumber);
    expect(mail.text).not.toContain(order.title);
    for (const result of order.results) expect(mail.text).not.toContain(result.test.name);
  }
  expect(mail.text).not.toMatch(/mg\/dL|g\/dL|\$/);
}

describe("notices of new results", () => {
  it("the scheduled job mails the demo patient 'Tiene un nuevo resultado disponible' with the owning clinic's portal and no health data", async () => {
    await runNoticeJob();
    const mails = await resultMails(DEMO_EMAIL);
    const sent = await ctx.db.prisma.sentNotice.findMany({ where: { user: { rut: "12345678-5" } } });
    // The demo's recent final order (01, Hospital Clínico del Sur) at least; one mail per notice claimed.
    expect(sent.map((notice) => `${notice.kind}:${notice.ref}`)).toContain("lab:1234567801");
    expect(sent.map((notice) => notice.ref)).not.toContain("1234567802"); // still pending at the laboratory
    expect(mails).toHaveLength(sent.length);
    const lab = mails.find((mail) => mail.text.includes("/dashboard/laboratory"))!;
    expect(lab.subject).toBe(`Hospital Clínico del Sur - ${NEW_RESULT_SUBJECT}`);
    expect(lab.text).toContain("http://clinicasur.localhost:4200/dashboard/laboratory");
    for (const mail of mails) expectNoHealthData(mail);
  });

  it("sends none twice: a second run finds the same results and sends nothing", async () => {
    const before = { notices: await ctx.db.prisma.sentNotice.count(), mails: (await ctx.mail.list()).length };
    await runNoticeJob();
    expect(await ctx.db.prisma.sentNotice.count()).toBe(before.notices);
    expect((await ctx.mail.list()).length).toBe(before.mails);
  });

  it("sends none to a patient who turned them off, and each patient's notices go only to their own address", async () => {
    expect(await ctx.db.prisma.sentNotice.count({ where: { userId: quietId } })).toBe(0);
    expect(await ctx.mail.list(QUIET_EMAIL)).toEqual([]);
    const notices = await ctx.db.prisma.sentNotice.findMany({ include: { user: { select: { email: true } } } });
    const mails = (await ctx.mail.list()).filter((mail) => mail.subject.includes(NEW_RESULT_SUBJECT));
    const perAddress = (list: string[]) => Object.fromEntries([...new Set(list)].map((to) => [to, list.filter((x) => x === to).length]));
    expect(perAddress(mails.map((mail) => mail.to))).toEqual(perAddress(notices.filter((n) => n.kind !== "bill").map((n) => n.user.email)));
  });

  it("a patient who turns result notices off in 'Avisos' gets none of the next new results", async () => {
    const id = await insertUser(ctx.db.prisma, { rut: rutOf(17_500_002), email: "apagado@correo.cl", roleType: Role.patient });
    await setNoticePreferences(ctx.db.prisma, id, { results: false }); // what 'Avisos' stores (tested below over HTTP)
    await runNoticeJob();
    expect(await ctx.db.prisma.sentNotice.count({ where: { userId: id } })).toBe(0);
    expect(await ctx.mail.list("apagado@correo.cl")).toEqual([]);
  });
});

describe("notices of new bills", () => {
  const createBill = (rut: string, accountCode: string) =>
    ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(admin),
      payload: { rut, accountCode, createAccountIdDate: "2026-11-20", amount: 150_000, isPaid: false, clinicCode: "puertomontt-rcr" },
    });

  it("mails the bill's patient, and only them, 'Tiene una nueva cuenta hospitalaria' with the bill's clinic portal", async () => {
    const other = "otro.paciente@correo.cl";
    await insertUser(ctx.db.prisma, { rut: rutOf(17_500_003), email: other, roleType: Role.patient });
    const response = await createBill(rutOf(17_500_003), "700001");
    expect(response.statusCode).toBe(200);
    const mail = await ctx.mail.waitFor(other);
    expect(mail.subject).toBe(`Clínica Puerto Montt - ${NEW_BILL_SUBJECT}`);
    expect(mail.text).toContain("http://clinicapuertomontt.localhost:4200/dashboard/my-bills");
    expect(mail.text).not.toContain("700001");
    expect(mail.text).not.toContain("150");
    expect((await ctx.mail.list(DEMO_EMAIL)).filter((m) => m.subject.includes(NEW_BILL_SUBJECT))).toEqual([]);
  });

  it("sends no bill notice to a patient who turned them off", async () => {
    await ctx.app.deps.background.settled();
    const response = await createBill(QUIET_RUT, "700002");
    expect(response.statusCode).toBe(200);
    await ctx.app.deps.background.settled();
    expect(await ctx.db.prisma.sentNotice.count({ where: { userId: quietId, kind: "bill" } })).toBe(0);
    expect(await ctx.app.deps.mailQueue!.pending()).toBe(0);
    expect(await ctx.mail.list(QUIET_EMAIL)).toEqual([]);
  });
});

describe("'Mi cuenta' → 'Avisos'", () => {
  const prefs = (method: "GET" | "PUT", payload?: unknown, token = patient) =>
    ctx.app.inject({ method, url: api("/account/notices"), headers: bearer(token), payload: payload as object });

  it("starts with every notice on, and turns each kind off and on again (REST and tRPC)", async () => {
    expect((await prefs("GET")).json().payload).toEqual({ results: true, bills: true, appointments: true });
    expect((await prefs("PUT", { bills: false })).json().payload).toEqual({ results: true, bills: false, appointments: true });
    const viaTrpc = await ctx.app.inject({
      method: "POST",
      url: "/trpc/notices.update",
      headers: bearer(patient),
      payload: { results: false },
    });
    expect(viaTrpc.statusCode).toBe(200);
    expect((await prefs("GET")).json().payload).toEqual({ results: false, bills: false, appointments: true });
    expect((await prefs("PUT", { appointments: false })).json().payload).toEqual({ results: false, bills: false, appointments: false });
    await prefs("PUT", { results: true, bills: true, appointments: true });
    expect((await prefs("GET")).json().payload).toEqual({ results: true, bills: true, appointments: true });
  });

  it("refuses a value that is not on/off, an unknown kind, and staff (who get no patient notices), changing nothing", async () => {
    for (const body of [{ results: "sí" }, { sms: true }]) {
      const response = await prefs("PUT", body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/[áéíóúa-z]/);
    }
    expect((await prefs("GET", undefined, admin)).statusCode).toBe(403);
    expect((await prefs("GET")).json().payload).toEqual({ results: true, bills: true, appointments: true });
  });
});
