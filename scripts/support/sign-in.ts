import { setTimeout as sleep } from "node:timers/promises";
import { generate } from "otplib";
import { demoAccounts } from "../../server/db/seed.ts";
import { normalizeRut } from "../../server/contract/rut.ts";

// How the operational runs (npm run test:load, test:faults) sign in over HTTP, as a person would: the patient login, or
// the staff login followed by the second step (issue 27) with the demo staff's development TOTP secret of the README.
// A code is accepted once per 30-second step, so a run signs each staff member in once and shares the token.

const api = (path: string) => `/api/rcr/v1${path}`;

interface LoginAnswer {
  payload?: { accessToken?: string; secondFactor?: string };
}

/**
 * A 503 is the portal saying it is busy (overload guard, or an instance still starting): a person tries again, and so
 * does a run's sign-in, which is set-up and not measured — up to 10 times, a second apart.
 */
async function post(baseUrl: string, path: string, body: unknown, token?: string): Promise<{ status: number; answer: LoginAnswer }> {
  for (let attempt = 1; ; attempt++) {
    const answer = await postOnce(baseUrl, path, body, token);
    if (answer.status !== 503 || attempt === 10) return answer;
    await sleep(1_000);
  }
}

async function postOnce(baseUrl: string, path: string, body: unknown, token?: string): Promise<{ status: number; answer: LoginAnswer }> {
  const response = await fetch(`${baseUrl}${api(path)}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, answer: (await response.json().catch(() => ({}))) as LoginAnswer };
}

/** A full access token of a patient (`new-login`) or of a demo staff member (`admin-login`, then `verify-otp`). */
export async function signIn(baseUrl: string, account: { rut: string; password: string }, portal: "patient" | "staff"): Promise<string> {
  const first = await post(baseUrl, portal === "staff" ? "/auth/admin-login" : "/auth/new-login", account);
  const token = first.answer.payload?.accessToken;
  if (first.status !== 200 || !token) throw new Error(`ingreso de ${account.rut}: ${first.status}`);
  if (first.answer.payload?.secondFactor !== "verify") return token;
  const secret = demoAccounts.find((demo) => normalizeRut(demo.rut) === normalizeRut(account.rut))?.totpSecret;
  if (!secret) throw new Error(`${account.rut} pide segundo factor y no es una cuenta de demostración con secreto conocido`);
  const second = await post(baseUrl, "/auth/verify-otp", { code: await generate({ secret }) }, token);
  const full = second.answer.payload?.accessToken;
  if (second.status !== 200 || !full) throw new Error(`segundo factor de ${account.rut}: ${second.status}`);
  return full;
}
