import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMocks, type RunningMocks } from "../../mocks/start.ts";
import { MAIL_QUEUE_NAME } from "../../server/providers/mail/mail-queue.ts";
import { freePort } from "../helpers/ports.ts";
import { api, bearer, createTestContext, demo, type CaughtMessage, type TestContext } from "../helpers/test-app.ts";
import { rutOf } from "../helpers/fixtures.ts";

// Issue 24, "SMTP caído": staff create a user and a patient asks for recovery while SMTP refuses connections. Both
// requests succeed; the mails wait in the durable queue (pg-boss on the portal's own database: in-memory PGlite here,
// PostgreSQL with TEST_DATABASE_URL) and are delivered once, when SMTP returns. Admins see mail stuck > 10 minutes.

let ctx: TestContext;
let smtpPort: number;
let lateSmtp: RunningMocks | undefined;
beforeAll(async () => {
  smtpPort = await freePort(); // nothing listens there: SMTP is down
  ctx = await createTestContext({ SMTP_PORT: String(smtpPort), MAIL_RETRY_SECONDS: "1" });
});
afterAll(async () => {
  await ctx.close();
  await lateSmtp?.close();
});

async function caught(to: string): Promise<CaughtMessage[]> {
  const response = await fetch(`${lateSmtp!.httpUrl}/mail/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as CaughtMessage[];
}

async function waitForMail(to: string, timeoutMs = 15_000): Promise<CaughtMessage[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await caught(to);
    if (messages.length > 0 || Date.now() > deadline) return messages;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const newUser = { rut: rutOf(31_100_100), email: "cola.correo@correo.cl" };

describe("the job engine of a test's portal", () => {
  it("has made its tables when the test context is handed over, so a test may read pgboss.job at once", async () => {
    // The portal starts its engine in the background (keepStarting); tests that count jobs read its tables first thing.
    const { rows } = await ctx.db.executeSql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [MAIL_QUEUE_NAME]);
    expect(rows).toHaveLength(1);
  });
});

describe("outbound mail while SMTP is down", () => {
  it("answers the user creation and the recovery request with success, and keeps their mails queued", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/admin?clinic=hcs-rcr"),
      headers: bearer(admin),
      payload: { ...newUser, roleType: 2 },
    });
    expect(created.statusCode).toBe(200);
    expect(await ctx.db.prisma.user.count({ where: { rut: newUser.rut.replace(/\./g, "") } })).toBe(1);

    const recovery = await ctx.app.inject({
      method: "POST",
      url: api("/auth/request-reset-password-rut"),
      payload: { rut: demo.patient.rut, rcrLink: "http://clinicasur.localhost:4200/recover-password" },
    });
    expect(recovery.statusCode).toBe(200);

    // The recovery mail is queued after the answer (its timing must not tell whether the RUT exists), and so is the
    // 'Nuevo ingreso a su cuenta' notice of the admin's login from a new device: three mails, in any order.
    await expect.poll(() => ctx.app.deps.mailQueue!.pending()).toBe(3);
  });

  it("keeps temporary passwords and reset links out of the job table (bodies are sealed)", async () => {
    const { rows } = await ctx.db.executeSql(`SELECT data::text AS data FROM pgboss.job WHERE name = $1`, [MAIL_QUEUE_NAME]);
    expect(rows).toHaveLength(3);
    for (const row of rows as Array<{ data: string }>) {
      expect(row.data).not.toMatch(/Contraseña temporal|token=|recover-password/);
      expect(row.data).toContain('"sealed"');
    }
  });

  it("shows admins the mail queued for more than 10 minutes, and nobody else", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const fresh = await ctx.app.inject({ method: "GET", url: api("/admin/mail-queue"), headers: bearer(admin) });
    expect(fresh.statusCode).toBe(200);
    // The two mails above, and the 'Nuevo ingreso a su cuenta' notice of this staff login from a new device.
    expect(fresh.json().payload).toMatchObject({ queued: true, stuckAfterMinutes: 10, pending: 3, stuck: [] });

    await ctx.db.executeSql(`UPDATE pgboss.job SET created_on = now() - interval '11 minutes' WHERE name = $1`, [MAIL_QUEUE_NAME]);
    const old = await ctx.app.inject({ method: "GET", url: api("/admin/mail-queue"), headers: bearer(admin) });
    const stuck = old.json().payload.stuck as Array<{ to: string; subject: string; attempts: number }>;
    expect(stuck.map((mail) => mail.to).sort()).toEqual([newUser.email, "paciente@portalpacientes.cl", "admin@portalpacientes.cl"].sort());
    expect(stuck.every((mail) => ["created", "retry", "active"].includes((mail as unknown as { state: string }).state))).toBe(true);

    const executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
    const refused = await ctx.app.inject({ method: "GET", url: api("/admin/mail-queue"), headers: bearer(executive) });
    expect(refused.statusCode).toBe(403);
    const patient = await ctx.login(demo.patient.rut, demo.patient.password);
    expect((await ctx.app.inject({ method: "GET", url: api("/admin/mail-queue"), headers: bearer(patient) })).statusCode).toBe(403);
  });

  it("queues nothing for a person without an e-mail address (SMTP would refuse it on every retry)", async () => {
    const before = await ctx.app.deps.mailQueue!.pending();
    await ctx.app.deps.mailQueue!.send({ to: " ", subject: "Nuevo ingreso a su cuenta", text: "x", html: "<p>x</p>" });
    expect(await ctx.app.deps.mailQueue!.pending()).toBe(before);
  });

  it("delivers each queued mail exactly once when SMTP returns", async () => {
    lateSmtp = await startMocks({ httpPort: 0, smtpPort });
    const welcome = await waitForMail(newUser.email);
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.text).toMatch(/Contraseña temporal: \S+/);
    const reset = await waitForMail("paciente@portalpacientes.cl");
    expect(reset).toHaveLength(1);
    expect(reset[0]!.text).toContain("/recover-password?token=");

    // Every queued mail, the staff login's new-device notice too, leaves the queue; once it is empty no retry is left
    // to send anything again, and nothing arrived a second time.
    await expect.poll(() => ctx.app.deps.mailQueue!.pending(), { timeout: 15_000 }).toBe(0);
    expect(await caught(newUser.email)).toHaveLength(1);
    expect(await caught("paciente@portalpacientes.cl")).toHaveLength(1);
  });
});
