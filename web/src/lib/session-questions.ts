import type { MyCaregiverLinks } from "@contract/caregivers.ts";
import type { AppRouter } from "@server-router";
import type { inferRouterOutputs } from "@trpc/server";
import { errorStatus, trpcClient } from "./trpc-client.ts";
import { getStoredUser, getToken } from "./plain-storage.ts";

// The route guards' two questions to the server (SPEC §4): is the stored token still valid, and has the patient
// accepted the terms. On the first load of a signed-in page the public shell asks them at once, while the app's
// code downloads, and the first guard takes those answers instead of asking again once the app runs: one round trip
// less before the page shows (issue 14).

/**
 * auth.validateToken: false without a token, or when the server says the token is not valid (false, 401, 403). A check
 * that got no answer (connection lost, request cut short by another page load) or a server failure keeps the session:
 * only the server may end it, and the page's own calls show the failure (a real 401 there still ends the session).
 */
export async function askTokenValid(): Promise<boolean> {
  if (!getToken()) return false;
  try {
    return (await trpcClient.auth.validateToken.query()) === true;
  } catch (error) {
    const status = errorStatus(error);
    return status !== 401 && status !== 403;
  }
}

/** Why the server refused the stored token (issue 45 §3: ended from another device, or not valid); null if it cannot say. */
export async function askWhySessionRefused(): Promise<string | null> {
  try {
    return await trpcClient.auth.sessionRefusal.query(undefined, { context: { sessionCheck: false } });
  } catch {
    return null;
  }
}

/**
 * terms.status (validate-tyc); an error counts as not accepted. Asked alongside the token check, so a 401 here is the
 * token guard's to handle (no "session expired" notice on top of it).
 */
export async function askTermsAccepted(): Promise<boolean> {
  try {
    return await trpcClient.terms.status.query(undefined, { context: { sessionCheck: false } });
  } catch {
    return false;
  }
}

/**
 * caregivers.mine, for 'Ver como:' on top of every patient page (issue 30): asked with the guard's questions so the bar
 * is there when the page first shows, instead of appearing above it and pushing it down (issue 26: layout shift 0.73
 * on 'Cuentas hospitalarias'). Undefined on any error: the bar then asks for itself, as before.
 */
export async function askCaregiverLinks(): Promise<MyCaregiverLinks | undefined> {
  try {
    return await trpcClient.caregivers.mine.query(undefined, { context: { sessionCheck: false } });
  } catch {
    return undefined;
  }
}

type LatestResults = inferRouterOutputs<AppRouter>["reports"]["latest"];

/**
 * reports.latest, the newest-results summary that 'Mis datos' paints last (issue 26: its largest text, so its LCP):
 * asked by the shell on a first load of that page, before the app's code is here. Undefined on any error: the page
 * then asks for itself.
 */
async function askLatestResults(): Promise<LatestResults | undefined> {
  try {
    return await trpcClient.reports.latest.query(undefined, { context: { sessionCheck: false } });
  } catch {
    return undefined;
  }
}

let earlyLatestResults: Promise<LatestResults | undefined> | undefined;

/** The shell's answer of reports.latest, once (undefined if it did not ask). */
export function takeEarlyLatestResults(): Promise<LatestResults | undefined> | undefined {
  const answer = earlyLatestResults;
  earlyLatestResults = undefined;
  return answer;
}

export interface SessionAnswers {
  tokenValid: Promise<boolean>;
  /** Only for a stored patient (the guard asks terms of patients only). */
  termsAccepted?: Promise<boolean>;
  /** Only for a stored patient. */
  caregiverLinks?: Promise<MyCaregiverLinks | undefined>;
}

// Answers older than this are not trusted by a guard: it asks again.
const FRESH_MS = 10_000;
let early: (SessionAnswers & { token: string; at: number }) | undefined;

/**
 * Starts asking the guard's questions now, for the first guard to take (no-op without a stored token), and, on
 * 'Mis datos' (`pathname`), the data it paints last.
 */
export function askSessionEarly(pathname = ""): void {
  const token = getToken();
  if (!token) return;
  const patient = getStoredUser()?.roleType === 2;
  if (patient && pathname.replace(/\/+$/, "") === "/dashboard/account-settings") earlyLatestResults = askLatestResults();
  early = {
    token,
    at: Date.now(),
    tokenValid: askTokenValid(),
    termsAccepted: patient ? askTermsAccepted() : undefined,
    caregiverLinks: patient ? askCaregiverLinks() : undefined,
  };
}

/** The early answers, once, if they were asked for the token stored now and are still fresh. */
export function takeEarlyAnswers(): SessionAnswers | undefined {
  const answers = early;
  early = undefined;
  return answers && answers.token === getToken() && Date.now() - answers.at < FRESH_MS ? answers : undefined;
}
