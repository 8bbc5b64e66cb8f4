import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callback, contextWith, handOver, toProviderAndBack } from "../helpers/claveunica-journey.ts";
import { api, bearer, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 43: a first-login patient (15.555.555-6, temporary password, no terms, no data) who comes through ClaveÚnica
// accepts the terms and completes the profile, but is never asked to replace the temporary password they did not use.
// The server decides it from how the session was opened (Session.signInMethod), over REST and tRPC.

const termsMessage = "Debe aceptar los términos y condiciones antes de continuar";
const passwordMessage = "Debe cambiar su contraseña temporal antes de continuar";
const imaging = api("/orders-imaging?dateFrom=2026-01-01&dateTo=2026-11-25");
const trpcBills = `/trpc/bills.mine?input=${encodeURIComponent(JSON.stringify({ page: 1 }))}`;

interface HandedOver {
  accessToken: string;
  user: { hasChangedPassword: boolean; dateTyc: string | null };
  suggested: Record<string, string | undefined>;
}

async function signInThroughClaveUnica(ctx: TestContext, run: string): Promise<HandedOver> {
  const answer = await callback(ctx, await toProviderAndBack(ctx, run));
  expect(answer.headers.location).toBe("/claveunica/listo");
  const session = await handOver(ctx, answer);
  expect(session.statusCode, session.body).toBe(200);
  return session.json<{ payload: HandedOver }>().payload;
}

const message = (answer: { json(): unknown }) => (answer.json() as { message?: string; error?: { message?: string } }).message;

describe("a first-login patient who comes through ClaveÚnica", () => {
  let ctx: TestContext;
  let signIn: HandedOver;
  beforeAll(async () => {
    ctx = await contextWith("/claveunica");
    signIn = await signInThroughClaveUnica(ctx, "15.555.555-6");
  });
  afterAll(() => ctx.close());

  const get = (path: string, token = signIn.accessToken) => ctx.app.inject({ method: "GET", url: path, headers: bearer(token) });

  it("opens a session that records it came through ClaveÚnica", async () => {
    expect(signIn.user.hasChangedPassword).toBe(false);
    const sessions = await ctx.db.prisma.session.findMany({ where: { user: { rut: "15555555-6" } }, select: { signInMethod: true } });
    expect(sessions.map((session) => session.signInMethod)).toEqual(["claveunica"]);
  });

  it("gets ClaveÚnica's names for the empty profile fields to confirm, not the e-mail it already has, and nothing is saved", async () => {
    expect(signIn.suggested).toEqual({ firstName: "Carolina", secondName: "Andrea", lastName: "Fuentes", secondLastName: "Lagos" });
    const user = await ctx.db.prisma.user.findUnique({
      where: { rut: "15555555-6" },
      select: { firstName: true, secondName: true, lastName: true, secondLastName: true, email: true },
    });
    expect(user).toEqual({
      firstName: null,
      secondName: null,
      lastName: null,
      secondLastName: null,
      email: "primer.ingreso@portalpacientes.cl",
    });
  });

  it("must still accept the terms first (REST and tRPC answer 403 with the terms message)", async () => {
    for (const answer of [await get(imaging), await get(trpcBills)]) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.body).toContain(termsMessage);
    }
  });

  it("after accepting the terms reaches the portal without replacing the temporary password", async () => {
    const accepted = await ctx.app.inject({ method: "POST", url: api("/term-conditions/accept"), headers: bearer(signIn.accessToken) });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const rest = await get(imaging);
    expect(rest.statusCode, rest.body).toBe(200);
    const trpc = await get(trpcBills);
    expect(trpc.statusCode, trpc.body).toBe(200);
    const user = await ctx.db.prisma.user.findUnique({ where: { rut: "15555555-6" }, select: { hasChangedPassword: true } });
    expect(user?.hasChangedPassword).toBe(false);
  });

  it("the same patient signing in with the Rut and temporary password is still asked to replace it", async () => {
    const token = await ctx.login(demo.firstLogin.rut, demo.firstLogin.password);
    const refused = await get(imaging, token);
    expect(refused.statusCode).toBe(403);
    expect(message(refused)).toBe(passwordMessage);
    // The ClaveÚnica session beside it keeps its way in.
    expect((await get(imaging)).statusCode).toBe(200);
  });
});

describe("ClaveÚnica's names and e-mail for a patient's profile", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await contextWith("/claveunica");
  });
  afterAll(() => ctx.close());

  it("suggests nothing to a patient whose profile is complete", async () => {
    expect((await signInThroughClaveUnica(ctx, "12.345.678-5")).suggested).toEqual({});
  });

  it("suggests only the fields the patient left empty, and never writes over what they typed", async () => {
    await ctx.db.prisma.user.update({
      where: { rut: "12345678-5" },
      data: { firstName: "Marita", secondLastName: null, email: "" },
    });
    const { suggested } = await signInThroughClaveUnica(ctx, "12.345.678-5");
    expect(suggested).toEqual({ secondLastName: "Pérez", email: "paciente@portalpacientes.cl" });
    const user = await ctx.db.prisma.user.findUnique({ where: { rut: "12345678-5" }, select: { firstName: true, secondLastName: true } });
    expect(user).toEqual({ firstName: "Marita", secondLastName: null });
  });
});
