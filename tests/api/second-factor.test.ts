import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { demoTotpSecrets, totpCode } from "../helpers/second-factor.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";
import { createUser } from "../../server/db/users.repository.ts";
import { openTotpSecret } from "../../server/features/auth/totp-secrets.ts";

// Issue 27: staff accounts behind a second factor (TOTP, RFC 6238). admin-login keeps its answer; for an enrolled
// person its token reaches only POST /auth/verify-otp, which answers like admin-login with a full token.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_PAIR: "4" });
});
afterAll(async () => ctx.close());

const get = (url: string, token: string) => ctx.app.inject({ method: "GET", url: api(url), headers: bearer(token) });
const post = (url: string, token: string, payload?: object) =>
  ctx.app.inject({ method: "POST", url: api(url), headers: bearer(token), ...(payload ? { payload } : {}) });
const forgetLastStep = (rut: string) => ctx.db.prisma.user.updateMany({ where: { rut: normalizeRut(rut) }, data: { totpLastStep: null } });

/** A staff member as an admin creates one, past the first login (own password), without a second factor yet. */
async function newStaff(body: number, roleType: 0 | 1 = 1) {
  const rut = rutOf(body);
  const password = "Propia2026x";
  await createUser(
    ctx.db.prisma,
    {
      rut: normalizeRut(rut),
      email: `staff${body}@correo.cl`,
      roleType,
      firstName: "Sofía",
      lastName: "Personal",
      secondLastName: "Prueba",
      password,
      state: { hasChangedPassword: true, dateTyc: new Date() },
      privileges: roleType === 1 ? ["hcs-rcr"] : undefined,
    },
    { id: true },
  );
  return { rut, password };
}

/** Enrols through the API with the token's person; returns the secret and the recovery codes. */
async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await post("/auth/second-factor/setup", token);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json().payload as { secret: string };
  const confirm = await post("/auth/second-factor/confirm", token, { code: await totpCode(secret) });
  expect(confirm.statusCode).toBe(200);
  return { secret, recoveryCodes: (confirm.json().payload as { recoveryCodes: string[] }).recoveryCodes };
}

describe("login of an enrolled staff member", () => {
  it("admin-login keeps its answer, and its token reaches nothing but the second step, over REST and tRPC", async () => {
    const first = await ctx.app.inject({ method: "POST", url: api("/auth/admin-login"), payload: demo.admin });
    expect(first.statusCode).toBe(200);
    const payload = first.json().payload as { user: { rut: string }; accessToken: string; secondFactor: string };
    expect(payload.user.rut).toBe("11.111.111-1");
    expect(payload.secondFactor).toBe("verify");
    const pending = payload.accessToken;
    for (const url of ["/auth/me", "/admin/filter/users", "/auth/sessions", "/auth/second-factor", "/admin/audit/events"]) {
      const answer = await get(url, pending);
      expect(answer.statusCode, url).toBe(401);
      expect(answer.json().message, url).toBe("Ingrese el código de verificación para continuar");
    }
    expect((await get("/auth/validate-token", pending)).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: "GET", url: "/trpc/users.list?input=%7B%7D", headers: bearer(pending) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: "GET", url: "/trpc/account.me", headers: bearer(pending) })).statusCode).toBe(401);
  });

  it("a wrong code is refused (400, Spanish) and the session stays password-only; the right code completes it", async () => {
    await forgetLastStep(demo.admin.rut);
    const { accessToken: pending } = await ctx.passwordStep(demo.admin.rut, demo.admin.password, "staff");
    const right = await totpCode(demoTotpSecrets.admin);
    const wrong = right === "000000" ? "111111" : "000000";
    const refused = await post("/auth/verify-otp", pending, { code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe("El código de verificación no es válido o ya fue utilizado");
    expect((await get("/auth/me", pending)).statusCode).toBe(401);
    expect((await post("/auth/verify-otp", pending, {})).json().message).toBe("Ingrese el código de verificación");

    const verified = await post("/auth/verify-otp", pending, { code: right });
    expect(verified.statusCode).toBe(200);
    const session = verified.json().payload as { user: { rut: string }; accessToken: string };
    expect(session.user.rut).toBe("11.111.111-1");
    expect((await get("/admin/filter/users", session.accessToken)).statusCode).toBe(200);
    expect((await get("/auth/validate-token", session.accessToken)).statusCode).toBe(200);
    expect((await post("/auth/verify-otp", session.accessToken, { code: right })).statusCode).toBe(409);
    const admin = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.admin.rut) } });
    const audited = await ctx.db.prisma.auditEvent.findMany({ where: { actorId: admin.id, action: "login.second-factor" } });
    expect(audited.map((row) => row.outcome).sort()).toEqual(["denied", "ok"]);
  });

  it("a code is usable once: the same code replayed on another login is refused", async () => {
    await forgetLastStep(demo.executive.rut);
    const code = await totpCode(demoTotpSecrets.executive);
    const one = await ctx.passwordStep(demo.executive.rut, demo.executive.password, "staff");
    expect((await post("/auth/verify-otp", one.accessToken, { code })).statusCode).toBe(200);
    const two = await ctx.passwordStep(demo.executive.rut, demo.executive.password, "staff");
    const replay = await post("/auth/verify-otp", two.accessToken, { code });
    expect(replay.statusCode).toBe(400);
    // The code of the previous step, older than the one used, is refused too; the next step's is accepted (±1 step).
    expect((await post("/auth/verify-otp", two.accessToken, { code: await totpCode(demoTotpSecrets.executive, -1) })).statusCode).toBe(400);
    expect((await post("/auth/verify-otp", two.accessToken, { code: await totpCode(demoTotpSecrets.executive, 1) })).statusCode).toBe(200);
  });

  it("the second step over tRPC (auth.verifyOtp) answers like REST", async () => {
    await forgetLastStep(demo.executive.rut);
    const { accessToken: pending } = await ctx.passwordStep(demo.executive.rut, demo.executive.password, "staff");
    const answer = await ctx.app.inject({
      method: "POST",
      url: "/trpc/auth.verifyOtp",
      headers: bearer(pending),
      payload: { code: await totpCode(demoTotpSecrets.executive) },
    });
    expect(answer.statusCode).toBe(200);
    const token = (answer.json() as { result: { data: { accessToken: string } } }).result.data.accessToken;
    expect((await get("/admin/filter/users", token)).statusCode).toBe(200);
  });

  it("code attempts are throttled like passwords (429 with a Spanish message)", async () => {
    const staff = await newStaff(41_000_001);
    const token = await ctx.login(staff.rut, staff.password, "staff");
    await enrol(token);
    const { accessToken: pending } = await ctx.passwordStep(staff.rut, staff.password, "staff");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post("/auth/verify-otp", pending, { code: "12345" + String(i) })).statusCode);
    expect(statuses.slice(0, 4).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const last = await post("/auth/verify-otp", pending, { code: "123456" });
    expect(last.json().message).toMatch(/Demasiados intentos/);
  });
});

describe("enrolment", () => {
  it("staff without a second factor get 'setup' and 403 on staff endpoints until a first code confirms the QR's secret", async () => {
    const staff = await newStaff(41_000_002);
    const first = await ctx.passwordStep(staff.rut, staff.password, "staff");
    expect(first.secondFactor).toBe("setup");
    const token = first.accessToken;
    const gated = await get("/admin/filter/users", token);
    expect(gated.statusCode).toBe(403);
    expect(gated.json().message).toBe("Debe configurar la verificación en dos pasos antes de continuar");
    expect((await ctx.app.inject({ method: "GET", url: "/trpc/users.list?input=%7B%7D", headers: bearer(token) })).statusCode).toBe(403);

    const status = await get("/auth/second-factor", token);
    expect(status.json().payload).toMatchObject({ enabled: false, required: true });
    const setup = await post("/auth/second-factor/setup", token);
    const enrolment = setup.json().payload as { secret: string; otpauthUri: string; qrSvg: string };
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qrSvg).toMatch(/^<svg/);
    const wrong = await post("/auth/second-factor/confirm", token, { code: "000000" });
    expect(wrong.statusCode).toBe(400);
    expect((await get("/admin/filter/users", token)).statusCode).toBe(403);

    const confirm = await post("/auth/second-factor/confirm", token, { code: await totpCode(enrolment.secret) });
    expect(confirm.statusCode).toBe(200);
    const codes = (confirm.json().payload as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((code) => expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/));
    const stored = await ctx.db.prisma.recoveryCode.findMany({ where: { user: { rut: normalizeRut(staff.rut) } } });
    expect(stored).toHaveLength(10);
    expect(stored.some((row) => codes.includes(row.codeHash))).toBe(false);
    expect((await get("/admin/filter/users", token)).statusCode).toBe(200);
    expect((await post("/auth/second-factor/setup", token)).statusCode).toBe(409);
    expect((await get("/auth/second-factor", token)).json().payload).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });

    const next = await ctx.passwordStep(staff.rut, staff.password, "staff");
    expect(next.secondFactor).toBe("verify");
  });

  it("a recovery code works in the same field, once", async () => {
    const staff = await newStaff(41_000_003);
    const { recoveryCodes } = await enrol(await ctx.login(staff.rut, staff.password, "staff"));
    const one = await ctx.passwordStep(staff.rut, staff.password, "staff");
    const used = await post("/auth/verify-otp", one.accessToken, { code: recoveryCodes[3]!.toLowerCase().replace("-", "") });
    expect(used.statusCode).toBe(200);
    const two = await ctx.passwordStep(staff.rut, staff.password, "staff");
    expect((await post("/auth/verify-otp", two.accessToken, { code: recoveryCodes[3] })).statusCode).toBe(400);
    const token = (await post("/auth/verify-otp", two.accessToken, { code: recoveryCodes[4] })).json().payload.accessToken as string;
    expect((await get("/auth/second-factor", token)).json().payload.recoveryCodesLeft).toBe(8);
  });
});

describe("an admin resets another staff member's second factor", () => {
  it("is audited with the reason, ends the person's sessions, and their next login sets it up anew", async () => {
    const staff = await newStaff(41_000_004);
    await enrol(await ctx.login(staff.rut, staff.password, "staff"));
    const staffToken = await ctx.login(staff.rut, staff.password, "staff", { totpSecret: (await secretOf(staff.rut))! });
    const target = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(staff.rut) } });
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");

    const byExecutive = await post("/admin/second-factor/reset", executive, { userId: target.id, reason: "Perdió su teléfono" });
    expect(byExecutive.statusCode).toBe(403);
    const adminRow = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.admin.rut) } });
    const own = await post("/admin/second-factor/reset", admin, { userId: adminRow.id, reason: "Perdí mi teléfono" });
    expect(own.statusCode).toBe(403);
    const noReason = await post("/admin/second-factor/reset", admin, { userId: target.id, reason: " " });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe("Indique el motivo del restablecimiento (al menos 5 caracteres)");

    const reset = await post("/admin/second-factor/reset", admin, { userId: target.id, reason: "Perdió su teléfono" });
    expect(reset.statusCode).toBe(200);
    expect((await get("/auth/me", staffToken)).statusCode).toBe(401);
    const audit = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "user.second-factor-reset", outcome: "ok" } });
    expect(audit).toMatchObject({ actorId: adminRow.id, resourceId: String(target.id) });
    expect(audit.after).toMatchObject({ reason: "Perdió su teléfono", sessionsEnded: true });
    expect(await ctx.db.prisma.recoveryCode.count({ where: { userId: target.id } })).toBe(0);
    expect((await ctx.passwordStep(staff.rut, staff.password, "staff")).secondFactor).toBe("setup");
    expect((await post("/admin/second-factor/reset", admin, { userId: target.id, reason: "Otra vez" })).statusCode).toBe(409);
  });
});

describe("sessions a person can see and end", () => {
  it("lists the open sessions with this one marked; 'Cerrar sesión' on another ends it at once; 'Cerrar las demás' ends the rest", async () => {
    const staff = await newStaff(41_000_005);
    const { secret } = await enrol(await ctx.login(staff.rut, staff.password, "staff"));
    const login = async (userAgent: string) => {
      await forgetLastStep(staff.rut);
      const first = await ctx.app.inject({
        method: "POST",
        url: api("/auth/admin-login"),
        headers: { "user-agent": userAgent },
        payload: { rut: staff.rut, password: staff.password },
      });
      const pending = first.json().payload.accessToken as string;
      const done = await ctx.app.inject({
        method: "POST",
        url: api("/auth/verify-otp"),
        headers: { ...bearer(pending), "user-agent": userAgent },
        payload: { code: await totpCode(secret) },
      });
      return done.json().payload.accessToken as string;
    };
    const firefox = await login("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0");
    const chrome = await login("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36");
    const third = await login("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Safari/604.1");

    const listed = (await get("/auth/sessions", chrome)).json().payload as Array<{
      id: string;
      device: string;
      current: boolean;
      ip: string;
    }>;
    const devices = listed.map((session) => session.device);
    expect(devices).toEqual(expect.arrayContaining(["Firefox en Windows", "Chrome en Linux", "Safari en iOS"]));
    expect(listed.filter((session) => session.current).map((session) => session.device)).toEqual(["Chrome en Linux"]);
    const firefoxId = listed.find((session) => session.device === "Firefox en Windows")!.id;

    expect((await post("/auth/sessions/end", chrome, { sessionId: firefoxId })).statusCode).toBe(200);
    expect((await get("/auth/me", firefox)).statusCode).toBe(401);
    expect((await post("/auth/sessions/end", chrome, { sessionId: firefoxId })).statusCode).toBe(404);
    expect((await post("/auth/sessions/end", chrome, { sessionId: "../../x" })).statusCode).toBe(400);

    expect((await post("/auth/sessions/end-others", chrome)).statusCode).toBe(200);
    expect((await get("/auth/me", third)).statusCode).toBe(401);
    expect((await get("/auth/me", chrome)).statusCode).toBe(200);
    // Another person's session id answers like a missing one.
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const adminSessions = (await get("/auth/sessions", admin)).json().payload as Array<{ id: string }>;
    expect((await post("/auth/sessions/end", chrome, { sessionId: adminSessions[0]!.id })).statusCode).toBe(404);
    expect((await get("/auth/me", admin)).statusCode).toBe(200);
  });

  it("mails 'Nuevo ingreso a su cuenta' when a new device signs in to a staff account, not for a known one", async () => {
    const body = 41_000_006;
    const staff = await newStaff(body);
    const { secret } = await enrol(await ctx.login(staff.rut, staff.password, "staff"));
    await ctx.mail.waitFor(`staff${body}@correo.cl`); // that first login was a new device too
    await ctx.mail.clear();
    const signIn = async (userAgent: string) => {
      await forgetLastStep(staff.rut);
      const first = await ctx.app.inject({
        method: "POST",
        url: api("/auth/admin-login"),
        headers: { "user-agent": userAgent },
        payload: { rut: staff.rut, password: staff.password },
      });
      await ctx.app.inject({
        method: "POST",
        url: api("/auth/verify-otp"),
        headers: { ...bearer(first.json().payload.accessToken as string), "user-agent": userAgent },
        payload: { code: await totpCode(secret) },
      });
    };
    await signIn("Navegador-Nuevo/1.0");
    const mail = await ctx.mail.waitFor(`staff${body}@correo.cl`);
    expect(mail.subject).toBe("Portal Pacientes - Nuevo ingreso a su cuenta");
    expect(mail.text).toContain("Navegador-Nuevo/1.0");
    await ctx.mail.clear();
    await signIn("Navegador-Nuevo/1.0");
    await ctx.mail.settled();
    expect(await ctx.mail.list(`staff${body}@correo.cl`)).toHaveLength(0);
  });
});

async function secretOf(rut: string): Promise<string | null> {
  const row = await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) }, select: { totpSecret: true } });
  return row.totpSecret === null ? null : openTotpSecret(ctx.config, row.totpSecret);
}

// insertUser (the other test files' fixture) gives staff the fixture secret, so the helpers' login goes through.
it("fixture staff are enrolled, and the test context's login completes their second step", async () => {
  const rut = rutOf(41_000_007);
  await insertUser(ctx.db.prisma, { rut, email: "fixture@correo.cl", roleType: 1, password: "Fixture2026", clinics: ["hcs-rcr"] });
  const token = await ctx.login(rut, "Fixture2026", "staff");
  expect((await get("/admin/filter/users", token)).statusCode).toBe(200);
});

it("a patient may turn it on (optional): new-login then answers 'verify' and the code completes it", async () => {
  const patient = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
  expect((await get("/auth/second-factor", patient)).json().payload).toMatchObject({ enabled: false, required: false });
  const { secret } = await enrol(patient);
  const first = await ctx.passwordStep(demo.incomplete.rut, demo.incomplete.password);
  expect(first.secondFactor).toBe("verify");
  expect((await get("/auth/me", first.accessToken)).statusCode).toBe(401);
  await forgetLastStep(demo.incomplete.rut);
  const done = await post("/auth/verify-otp", first.accessToken, { code: await totpCode(secret) });
  expect(done.statusCode).toBe(200);
  expect((await get("/auth/me", done.json().payload.accessToken as string)).statusCode).toBe(200);
});
