import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callback, contextWith, handOver, toProviderAndBack } from "../helpers/claveunica-journey.ts";
import { enrolSecondFactor, totpCode } from "../helpers/second-factor.ts";
import { api, bearer, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 43: ClaveÚnica replaces the portal's password, not the second factor a patient chose to add. A patient with a
// second factor who comes through ClaveÚnica gets a token that reaches only POST /auth/verify-otp until the code.

interface HandedOver {
  accessToken: string;
  secondFactor?: string;
}

describe("a patient with a second factor who comes through ClaveÚnica", () => {
  let ctx: TestContext;
  let secret: string;
  let signIn: HandedOver;
  beforeAll(async () => {
    ctx = await contextWith("/claveunica");
    secret = (await enrolSecondFactor(ctx.app, await ctx.login(demo.patient.rut, demo.patient.password))).secret;
    const answer = await callback(ctx, await toProviderAndBack(ctx, demo.patient.rut));
    expect(answer.headers.location).toBe("/claveunica/listo");
    const session = await handOver(ctx, answer);
    expect(session.statusCode, session.body).toBe(200);
    signIn = session.json<{ payload: HandedOver }>().payload;
  });
  afterAll(() => ctx.close());

  const orders = (token: string) =>
    ctx.app.inject({ method: "GET", url: api("/orders?dateFrom=2026-01-01&dateTo=2026-11-25"), headers: bearer(token) });

  it("is asked for the code: the token reaches nothing else until then", async () => {
    expect(signIn.secondFactor).toBe("verify");
    expect((await orders(signIn.accessToken)).statusCode).toBe(401);
  });

  it("gives the code and reaches the portal with the same ClaveÚnica session", async () => {
    const verified = await ctx.app.inject({
      method: "POST",
      url: api("/auth/verify-otp"),
      headers: bearer(signIn.accessToken),
      payload: { code: await totpCode(secret, 1) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const { accessToken } = verified.json<{ payload: { accessToken: string } }>().payload;
    expect((await orders(accessToken)).statusCode).toBe(200);
    const sessions = await ctx.db.prisma.session.findMany({
      where: { user: { rut: "12345678-5" }, signInMethod: "claveunica" },
      select: { secondFactorPending: true },
    });
    expect(sessions).toEqual([{ secondFactorPending: false }]);
  });
});
