import { randomInt } from "node:crypto";
import { latestMailTo } from "./mail.ts";
import { e2eBaseUrl } from "./ports.ts";
import { nextTotpCode, staffSecretOf } from "./second-factor.ts";
import { currentWorkerStaff } from "./staff-accounts.ts";
import { PASSWORD_CHANGE_CLINIC } from "../../../server/contract/clinics.ts";
import { rutOf } from "../../helpers/fixtures.ts";

// Browser specs share one database, so a spec that changes an account creates its own through the real staff API:
// the admin creates it, the welcome mail carries the temporary password (as a new patient would receive it).

const api = (path: string) => `${e2eBaseUrl}/api/rcr/v1${path}`;

export interface FreshAccount {
  rut: string;
  email: string;
  password: string;
}

async function post(path: string, body: object, token?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(api(path), { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path} failed: ${response.status} ${await response.text()}`);
  return response;
}

/** Logs in through the REST contract and returns the access token. */
async function apiLogin(account: { rut: string; password: string }, portal: "patient" | "staff" = "patient"): Promise<string> {
  const response = await post(portal === "staff" ? "/auth/admin-login" : "/auth/new-login", {
    rut: account.rut,
    password: account.password,
  });
  const first = ((await response.json()) as { payload: { accessToken: string; secondFactor?: string } }).payload;
  const secret = first.secondFactor === "verify" ? staffSecretOf(account.rut) : undefined;
  if (!secret) return first.accessToken;
  // The second step of a staff login (issue 27): a code of a step not used yet (see support/second-factor.ts).
  for (let attempt = 0; attempt < 4; attempt++) {
    const verified = await fetch(api("/auth/verify-otp"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${first.accessToken}` },
      body: JSON.stringify({ code: await nextTotpCode(secret) }),
    });
    if (verified.ok) return ((await verified.json()) as { payload: { accessToken: string } }).payload.accessToken;
  }
  throw new Error(`verify-otp ${account.rut} failed`);
}

/** Changes the account's password in session (which voids every token issued before). */
async function apiChangePassword(token: string, account: FreshAccount, newPassword: string): Promise<void> {
  await post(
    `/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`,
    { oldPassword: account.password, password: newPassword, passwordConfirmation: newPassword, rut: account.rut },
    token,
  );
}

let adminToken: Promise<string> | undefined;
const adminSession = () => (adminToken ??= apiLogin(currentWorkerStaff().admin, "staff"));

/** A unique valid RUT in a range the seed does not use. */
export function uniqueRut(): string {
  return rutOf(30_000_000 + randomInt(9_000_000));
}

/** A new account on its first login (terms not accepted, temporary password), created as staff would. */
export async function createFreshAccount(roleType: 0 | 1 | 2 = 2): Promise<FreshAccount> {
  const rut = uniqueRut();
  const email = `e2e.${rut.replace(/\D/g, "")}@correo.cl`;
  const since = new Date();
  await post("/admin", { rut, email, roleType, rcrLink: e2eBaseUrl }, await adminSession());
  const mail = await latestMailTo(email, since);
  const password = /Contraseña temporal: (\S+)/.exec(mail.text)?.[1];
  if (!password) throw new Error("the welcome mail carries no temporary password");
  return { rut, email, password };
}

/**
 * A fresh patient who accepted the terms and changed the temporary password but has not completed the profile
 * (the incomplete-profile case).
 */
export async function createPatientWithIncompleteProfile(): Promise<FreshAccount> {
  const account = await createFreshAccount(2);
  const token = await apiLogin(account);
  await post("/term-conditions/accept", {}, token);
  const newPassword = `Propia${randomInt(100_000, 999_999)}`;
  await apiChangePassword(token, account, newPassword);
  return { ...account, password: newPassword };
}

/** Changes a patient's password through the API, which ends every session opened before (tokens are voided). */
export async function changePasswordElsewhere(account: FreshAccount, newPassword: string): Promise<void> {
  await apiChangePassword(await apiLogin(account), account, newPassword);
}
