import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { payAtForm, testCards } from "../helpers/payments-fixtures.ts";
import { createBill } from "../helpers/fixtures.ts";
import { demoTotpSecrets, totpCode } from "../helpers/second-factor.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// The log of a full flow, at debug level, must not contain a password, a token, a reset link's token or a RUT in any
// spelling (issue 15, "Registros"), while still telling requests apart by reqId.

let ctx: TestContext;
let app: FastifyInstance;
let log = "";
beforeAll(async () => {
  ctx = await createTestContext();
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  app = await buildApp({ config: { ...ctx.config, LOG_LEVEL: "debug" }, db: ctx.db, logStream: capture });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) => app.inject({ method: "POST", url, payload, headers });
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });

/** Every way a RUT may be written: 12.345.678-5, 12345678-5, 123456785 (and the same for each RUT given). */
function spellings(rut: string): string[] {
  const plain = rut.replace(/\./g, "");
  return [rut, plain, plain.replace("-", "")];
}

describe("what the log keeps and what it never keeps", () => {
  it("a full flow — logins, a failed one, a password reset, tRPC, a payment — leaves no secret and no RUT in the log", async () => {
    const secrets: string[] = [demo.patient.password, demo.admin.password, "ClaveEquivocada99"];
    // Patient and staff logins, and a failed one.
    const patientLogin = await post(api("/auth/new-login"), demo.patient);
    expect(patientLogin.statusCode).toBe(200);
    const patientToken = patientLogin.json().payload.accessToken as string;
    const adminLogin = await post(api("/auth/admin-login"), { rut: demo.admin.rut.replace(/\./g, ""), password: demo.admin.password });
    const adminPending = adminLogin.json().payload.accessToken as string;
    // The second step of a staff login (issue 27), with the demo admin's development secret.
    const adminVerified = await post(api("/auth/verify-otp"), { code: await totpCode(demoTotpSecrets.admin) }, bearer(adminPending));
    expect(adminVerified.statusCode).toBe(200);
    const adminToken = adminVerified.json().payload.accessToken as string;
    secrets.push(adminPending);
    expect((await post(api("/auth/new-login"), { rut: demo.patient.rut, password: "ClaveEquivocada99" })).statusCode).toBe(401);
    secrets.push(patientToken, adminToken);

    // Authenticated reads, with RUTs in the path and in search terms (REST and tRPC).
    await get(api("/auth/me"), bearer(patientToken));
    await get(api(`/files/accounts/${demo.patient.rut}`), bearer(adminToken));
    await get(api(`/files/accounts/${demo.patient.rut.replace(/\./g, "").replace("-", "")}`), bearer(adminToken));
    await get(api(`/admin/filter/users?param=${encodeURIComponent(demo.patient.rut)}`), bearer(adminToken));
    const input = encodeURIComponent(JSON.stringify({ param: demo.patient.rut.replace(/\./g, "") }));
    expect((await get(`/trpc/users.list?input=${input}`, bearer(adminToken))).statusCode).toBe(200);
    const trpcLogin = await post("/trpc/auth.login", { rut: demo.executive.rut, password: demo.executive.password, portal: "staff" });
    secrets.push(demo.executive.password);
    expect(trpcLogin.statusCode).toBeLessThan(500);

    // A payment: started, paid at the provider's form, committed on return (token_ws in the query string).
    const bill = await createBill(ctx.db.prisma, demo.patient.rut.replace(/\./g, ""), { amount: 12_345 });
    const started = await post(
      api("/payment/generate-transaction-new-prod"),
      { accountId: bill.id, amount: 1, rcrLink: "http://clinicasur.localhost:4200", clinicCode: "hcs-rcr" },
      bearer(patientToken),
    );
    expect(started.statusCode).toBe(200);
    const paymentToken = started.json().payload.token as string;
    secrets.push(paymentToken);
    await payAtForm(ctx.mocksUrl, paymentToken, testCards.visaApproved);
    await get(`/dashboard/my-bills?token_ws=${paymentToken}`);
    const committed = await get(api(`/payment/new-commit-prod?token_ws=${paymentToken}`), bearer(patientToken));
    expect(committed.statusCode).toBe(200);
    await get(`/dashboard/my-bills?TBK_TOKEN=${paymentToken}&TBK_ORDEN_COMPRA=1`);
    secrets.push(testCards.visaApproved.cardNumber);

    // A password reset: the request, the link opened in the browser, the new password set with its token.
    expect((await post(api("/auth/request-reset-password-rut"), { rut: demo.patient.rut })).statusCode).toBe(200);
    const mail = await ctx.mail.waitFor("paciente@portalpacientes.cl").catch((error: unknown) => {
      // What the portal said meanwhile (warnings and errors, and anything about mail or the queue) tells why.
      const said = log
        .trim()
        .split("\n")
        .filter((line) => /"level":(40|50|60)|mail|boss|reset/i.test(line))
        .map((line) => line.slice(0, 600));
      throw new Error(`${String(error)}\n${said.join("\n")}`);
    });
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    const resetToken = link.searchParams.get("token")!;
    secrets.push(resetToken);
    await get(`${link.pathname}${link.search}`);
    const newPassword = "NuevaClaveLog2026";
    secrets.push(newPassword);
    const reset = await post(
      api("/auth/new-password"),
      { rut: demo.patient.rut, password: newPassword, passwordConfirmation: newPassword },
      bearer(resetToken),
    );
    expect(reset.statusCode).toBe(200);
    expect((await post(api("/auth/new-login"), { rut: demo.patient.rut, password: newPassword })).statusCode).toBe(200);

    const lines = log.trim().split("\n");
    expect(lines.length).toBeGreaterThan(30);
    const leaks: string[] = [];
    const ruts = [demo.patient.rut, demo.admin.rut, demo.executive.rut].flatMap(spellings);
    for (const secret of [...secrets, ...ruts]) if (log.includes(secret)) leaks.push(secret);
    expect(leaks).toEqual([]);
    expect(log).not.toMatch(/Bearer /i);
    // The reset mail may wait for the durable queue's retry after a failed SMTP attempt: mail.waitFor allows 45 s.
  }, 60_000);

  it("writes one JSON object per line, and every request's lines carry the id returned in x-request-id", async () => {
    const response = await get(api("/auth/me"), { "x-request-id": "rastreo-123" });
    expect(response.headers["x-request-id"]).toBe("rastreo-123");
    const entries = log
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { reqId?: string; msg: string; req?: { url: string } });
    const ours = entries.filter((entry) => entry.reqId === "rastreo-123");
    expect(ours.map((entry) => entry.msg)).toEqual(["incoming request", "request completed"]);
    expect(ours[0]!.req!.url).toBe("/api/rcr/v1/auth/me");
  });

  it("redacts secret fields wherever a log call puts them: headers, bodies, passwords, tokens, RUTs, card data", () => {
    const before = log.length;
    app.log.info(
      {
        password: "Plano1",
        req: { headers: { authorization: "Bearer abc.def.ghi" }, body: { password: "Plano2" } },
        user: { rut: "9.876.543-3", email: "alguien@correo.cl" },
        payment: { detail: { token_ws: "tok-123", card_detail: { card_number: "4051885600446623" } } },
        reset: { resetToken: "rst-456", link: "https://x/recover-password?token=rst-456" },
      },
      "structured",
    );
    // An ioredis error carries its command, whose keys name a RUT.
    const redisError = Object.assign(new Error("Command timed out"), {
      command: { name: "eval", args: ["script", 2, "pp:login:pair:9876543-3|10.0.0.1", "pp:login-pairs:9876543-3"] },
    });
    app.log.error({ err: redisError }, "unexpected error");
    // A database error's detail names the value: the last line of defence scrubs it from the text.
    app.log.error({ err: new Error("duplicate key value violates unique constraint: Key (rut)=(9876543-3) already exists") }, "x");
    const written = log.slice(before);
    for (const secret of [
      "Plano1",
      "Plano2",
      "abc.def.ghi",
      "9.876.543-3",
      "9876543-3",
      "alguien@correo.cl",
      "tok-123",
      "4051885600446623",
      "rst-456",
    ]) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain("[oculto]");
    expect(written).toContain('"msg":"structured"');
    expect(written).toContain("Command timed out");
    expect(written).toContain("Key (rut)=([rut]) already exists");
  });
});
