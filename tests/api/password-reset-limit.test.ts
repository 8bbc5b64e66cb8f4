import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ RESET_MAX_REQUESTS_PER_HOUR: "2" });
});
afterAll(() => ctx.close());

describe("password recovery requests per hour", () => {
  it("sends at most the hourly number of mails to one account, answering every request the same", async () => {
    const email = "paciente@portalpacientes.cl";
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const response = await ctx.app.inject({
        method: "POST",
        url: api("/auth/request-reset-password-rut"),
        payload: { rut: demo.patient.rut },
      });
      answers.push(response.json());
      // Each request's background work finishes before the next one starts.
      await ctx.app.deps.background.settled();
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // Two mails were queued (the other two requests were refused, audited below); both arrive.
    await expect.poll(async () => (await ctx.mail.list(email)).length, { timeout: 15_000 }).toBe(2);
    const refused = await ctx.db.prisma.auditEvent.count({ where: { action: "password.reset-request", outcome: "denied" } });
    expect(refused).toBe(2);
  });
});
