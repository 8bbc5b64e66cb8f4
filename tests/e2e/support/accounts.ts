import { randomInt } from "node:crypto";
import { formatRut, rutCheckDigit } from "../../../server/contract/rut.ts";
import { latestMailTo } from "./mail.ts";
import { e2eBaseUrl } from "./ports.ts";

// Browser specs share one database, so a spec that changes an account creates its own through the real staff API:
// the admin creates it, the welcome mail carries the temporary password (as a new patient would receive it).

const api = (path: string) => `${e2eBaseUrl}/api/rcr/v1${path}`;

export interface FreshAccount {
  rut: string;
  email: string;
  password: string;
}

let adminToken: Promise<string> | undefined;
function adminSession(): Promise<string> {
  adminToken ??= fetch(api("/auth/admin-login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rut: "11.111.111-1", password: "Admin2026" }),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`admin login failed: ${response.status}`);
    return ((await response.json()) as { payload: { accessToken: string } }).payload.accessToken;
  });
  return adminToken;
}

/** A unique valid RUT in a range the seed does not use. */
export function uniqueRut(): string {
  const body = String(30_000_000 + randomInt(9_000_000));
  return formatRut(`${body}-${rutCheckDigit(body)}`);
}

/** A new account on its first login (terms not accepted, temporary password), created as staff would. */
export async function createFreshAccount(roleType: 0 | 1 | 2 = 2): Promise<FreshAccount> {
  const rut = uniqueRut();
  const email = `e2e.${rut.replace(/\D/g, "")}@correo.cl`;
  const since = new Date();
  const response = await fetch(api("/admin"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${await adminSession()}` },
    body: JSON.stringify({ rut, email, roleType, rcrLink: e2eBaseUrl }),
  });
  if (!response.ok) throw new Error(`create account failed: ${response.status} ${await response.text()}`);
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
  const newPassword = `Propia${randomInt(100_000, 999_999)}`;
  const login = await fetch(api("/auth/new-login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rut: account.rut, password: account.password }),
  });
  const { payload } = (await login.json()) as { payload: { accessToken: string } };
  const accepted = await fetch(api("/term-conditions/accept"), { method: "POST", headers: { authorization: `Bearer ${payload.accessToken}` } });
  if (!accepted.ok) throw new Error(`accepting the terms failed: ${accepted.status}`);
  const changed = await fetch(api("/auth/change-password-user?clinic=hcs-rcr"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${payload.accessToken}` },
    body: JSON.stringify({ oldPassword: account.password, password: newPassword, passwordConfirmation: newPassword, rut: account.rut }),
  });
  if (!changed.ok) throw new Error(`changing the password failed: ${changed.status} ${await changed.text()}`);
  return { ...account, password: newPassword };
}

/** Changes a patient's password through the API, which ends every session opened before (tokens are voided). */
export async function changePasswordElsewhere(account: FreshAccount, newPassword: string): Promise<void> {
  const login = await fetch(api("/auth/new-login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rut: account.rut, password: account.password }),
  });
  const { payload } = (await login.json()) as { payload: { accessToken: string } };
  const changed = await fetch(api("/auth/change-password-user?clinic=hcs-rcr"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${payload.accessToken}` },
    body: JSON.stringify({ oldPassword: account.password, password: newPassword, passwordConfirmation: newPassword, rut: account.rut }),
  });
  if (!changed.ok) throw new Error(`changing the password failed: ${changed.status}`);
}
