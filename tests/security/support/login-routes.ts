import type { FastifyInstance } from "fastify";
import { Role } from "../../../server/contract/roles.ts";
import { hash } from "@node-rs/argon2";
import { insertUser, plainRutOf } from "../../helpers/fixtures.ts";
import { fixtureTotpSecret, totpCode } from "../../helpers/second-factor.ts";
import { api, bearer, type TestContext } from "../../helpers/test-app.ts";

// The login-like routes of the portal, each as "one attempt with the account's right or a wrong secret, from an
// address, in a browser with these cookies", so the throttle families (shared addresses, the second step under attack)
// run over every one of them, REST and tRPC. Password recovery is not here: it answers the same 200 to every request
// and has no per-address counter; its only limit is the account's hourly mails (docs/seguridad.md).

export interface Attempt {
  status: number;
  /** The device cookie the answer set, as "name=value", if any. */
  deviceCookie: string | undefined;
}

export interface Account {
  rut: string;
  password: string;
  /** The account's TOTP secret (staff and patients with a second factor). */
  secret?: string;
}

export interface LoginRoute {
  name: string;
  /** What the attempts guess: the password (the login) or the code of the second step. */
  guesses: "password" | "code";
  /** A fresh account of the route's kind, whose counters no other test touched. */
  newAccount(): Promise<Account>;
  attempt(account: Account, right: boolean, address: string, cookie?: string): Promise<Attempt>;
  /** The throttle counter keys of one (account, address) pair and of the account, as the store names them. */
  pairKey(account: Account, address: string): string;
}

const PASSWORD = "Paciente2026";
let hashed: Promise<string> | undefined;
let nextBody = 31_000_000;

/**
 * Inserts an account with a known password. Its hash is argon2id with the smallest cost: checking it is what the
 * families do hundreds of times, on a shared machine, and the throttle is the same whatever a check costs.
 */
export async function insertAccount(ctx: TestContext, role: "patient" | "staff"): Promise<Account> {
  hashed ??= hash(PASSWORD, { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const rut = plainRutOf((nextBody += 1));
  await insertUser(ctx.db.prisma, {
    rut,
    email: `persona${nextBody}@correo.cl`,
    roleType: role === "patient" ? Role.patient : Role.executive,
    firstName: "Persona",
    lastName: "Prueba",
    clinics: role === "staff" ? ["hcs-rcr"] : undefined,
    patientClinics: role === "patient" ? ["hcs-rcr"] : undefined,
  });
  await ctx.db.prisma.user.update({ where: { rut }, data: { passwordHash: await hashed } });
  return { rut, password: PASSWORD, ...(role === "staff" ? { secret: fixtureTotpSecret } : {}) };
}

const deviceCookieOf = (setCookie: string | string[] | undefined): string | undefined =>
  [setCookie ?? []]
    .flat()
    .map((line) => line.split(";")[0]!)
    .find((pair) => pair.startsWith("pp_dispositivo_"));

/** A code the account's app is not showing now (±1 step), so it is wrong whatever the clock. */
async function wrongCode(secret: string): Promise<string> {
  const taken = new Set(await Promise.all([-1, 0, 1].map((step) => totpCode(secret, step))));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!taken.has(candidate)) return candidate;
  }
}

function restLogin(ctx: TestContext, portal: "patient" | "staff") {
  return async (account: Account, right: boolean, address: string, cookie?: string): Promise<Attempt & { token?: string }> => {
    const response = await ctx.app.inject({
      method: "POST",
      url: api(portal === "staff" ? "/auth/admin-login" : "/auth/new-login"),
      payload: { rut: account.rut, password: right ? account.password : `${account.password}x` },
      headers: cookie ? { cookie } : {},
      remoteAddress: address,
    });
    const token = response.statusCode === 200 ? (response.json() as { payload: { accessToken: string } }).payload.accessToken : undefined;
    return { status: response.statusCode, deviceCookie: deviceCookieOf(response.headers["set-cookie"]), token };
  };
}

function trpcCall(app: FastifyInstance, path: string, input: object, address: string, headers: Record<string, string>) {
  return app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: JSON.stringify(input),
    headers: { "content-type": "application/json", ...headers },
    remoteAddress: address,
  });
}

/** The second step's attempts: the password step (right, from the same browser) once per account, then codes. */
function codeRoute(
  ctx: TestContext,
  name: string,
  send: (token: string, code: string, address: string, cookie?: string) => Promise<Attempt>,
) {
  const passwordStep = restLogin(ctx, "staff");
  const tokens = new Map<string, string>();
  return {
    name,
    guesses: "code" as const,
    newAccount: () => insertAccount(ctx, "staff"),
    async attempt(account: Account, right: boolean, address: string, cookie?: string) {
      // An attacker who knows the password keeps one password-only session and sends codes from many addresses; the
      // owner's browser signs in with its own (the password step of a known browser passes whatever the attack).
      let token = right ? undefined : tokens.get(account.rut);
      if (!token) {
        const first = await passwordStep(account, true, address, cookie);
        if (first.status !== 200) return first;
        token = first.token!;
        if (!right) tokens.set(account.rut, token);
      }
      // A code works once per account: forget the last one used, as if the person had waited for the next.
      if (right) await ctx.db.prisma.user.update({ where: { rut: account.rut }, data: { totpLastStep: null } });
      const code = right ? await totpCode(account.secret!) : await wrongCode(account.secret!);
      return send(token, code, address, cookie);
    },
    pairKey: (account: Account, address: string) => `pair:2fa:${account.rut}|${address}`,
  };
}

/** Every login-like route, REST and tRPC. */
export function loginRoutes(ctx: TestContext): LoginRoute[] {
  const passwordRoute = (name: string, portal: "patient" | "staff", attempt: LoginRoute["attempt"]): LoginRoute => ({
    name,
    guesses: "password",
    newAccount: () => insertAccount(ctx, portal),
    attempt,
    pairKey: (account, address) => `pair:${account.rut}|${address}`,
  });
  const trpcLogin =
    (portal: "patient" | "staff"): LoginRoute["attempt"] =>
    async (account, right, address, cookie) => {
      const response = await trpcCall(
        ctx.app,
        "auth.login",
        { portal, rut: account.rut, password: right ? account.password : `${account.password}x` },
        address,
        cookie ? { cookie } : {},
      );
      return { status: response.statusCode, deviceCookie: deviceCookieOf(response.headers["set-cookie"]) };
    };
  return [
    passwordRoute("patient login (REST new-login)", "patient", restLogin(ctx, "patient")),
    passwordRoute("staff login (REST admin-login)", "staff", restLogin(ctx, "staff")),
    passwordRoute("patient login (tRPC auth.login)", "patient", trpcLogin("patient")),
    codeRoute(ctx, "second step (REST verify-otp)", async (token, code, address, cookie) => {
      const response = await ctx.app.inject({
        method: "POST",
        url: api("/auth/verify-otp"),
        payload: { code },
        headers: { ...bearer(token), ...(cookie ? { cookie } : {}) },
        remoteAddress: address,
      });
      return { status: response.statusCode, deviceCookie: deviceCookieOf(response.headers["set-cookie"]) };
    }),
    codeRoute(ctx, "second step (tRPC auth.verifyOtp)", async (token, code, address, cookie) => {
      const response = await trpcCall(ctx.app, "auth.verifyOtp", { code }, address, { ...bearer(token), ...(cookie ? { cookie } : {}) });
      return { status: response.statusCode, deviceCookie: deviceCookieOf(response.headers["set-cookie"]) };
    }),
  ];
}

/**
 * Signs the account in fully (password, and the code when it has a second factor) through REST from a browser that
 * had no device cookie, and returns the device cookie that browser then holds.
 */
export async function signInFully(ctx: TestContext, account: Account, address: string): Promise<string> {
  const first = await restLogin(ctx, account.secret ? "staff" : "patient")(account, true, address);
  if (first.status !== 200) throw new Error(`password step of ${account.rut}: ${first.status}`);
  if (!account.secret) return first.deviceCookie!;
  await ctx.db.prisma.user.update({ where: { rut: account.rut }, data: { totpLastStep: null } });
  const second = await ctx.app.inject({
    method: "POST",
    url: api("/auth/verify-otp"),
    payload: { code: await totpCode(account.secret) },
    headers: bearer(first.token!),
    remoteAddress: address,
  });
  if (second.statusCode !== 200) throw new Error(`second step of ${account.rut}: ${second.statusCode} ${second.body}`);
  return deviceCookieOf(second.headers["set-cookie"]) ?? first.deviceCookie!;
}

/** The status a wrong secret gets when it was checked: 401 for a password, 400 for a code (tRPC's BAD_REQUEST too). */
export const checkedWrong = (route: LoginRoute) => (route.guesses === "password" ? 401 : 400);

/** Every login route the throttle families try, by the name loginRoutes gives it. */
export const LOGIN_ROUTE_NAMES = [
  "patient login (REST new-login)",
  "staff login (REST admin-login)",
  "patient login (tRPC auth.login)",
  "second step (REST verify-otp)",
  "second step (tRPC auth.verifyOtp)",
] as const;
