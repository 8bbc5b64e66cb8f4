import type { MyCaregiverLinks } from "@contract/caregivers.ts";
import type { AppRouter } from "@server-router";
import type { inferRouterOutputs } from "@trpc/server";
import { errorStatus, trpcClient } from "./trpc-client.ts";
import { getStoredUser, getToken } from "./plain-storage.ts";
import { currentClinic } from "./clinic.ts";
import { patientMenuHasBills } from "./hidden-pages.ts";

const ACCOUNT_SETTINGS_PATH = "/dashboard/account-settings";

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

type Outputs = inferRouterOutputs<AppRouter>;

/** An answer, or undefined on any error: the page then asks for itself. */
async function quietly<T>(ask: () => Promise<T>): Promise<T | undefined> {
  try {
    return await ask();
  } catch {
    return undefined;
  }
}

/**
 * The summaries 'Mis datos' paints first, asked by the shell on a first load of that page, before the app's code is here
 * (issue 26): the newest results, and what is pending where the clinic's menu has hospital bills (issue 46: the page's
 * largest text, so its LCP, went out only once the page had rendered). Always the patient's own, as the summaries are
 * (issue 45 §2).
 */
interface AccountSummaries {
  latestResults?: Promise<Outputs["reports"]["latest"] | undefined>;
  pendingBills?: Promise<Outputs["bills"]["pending"] | undefined>;
}

let earlySummaries: AccountSummaries = {};

function askAccountSummaries(): AccountSummaries {
  const context = { sessionCheck: false, ownAccount: true };
  return {
    latestResults: quietly(() => trpcClient.reports.latest.query(undefined, { context })),
    pendingBills: patientMenuHasBills(currentClinic().key)
      ? quietly(() => trpcClient.bills.pending.query(undefined, { context }))
      : undefined,
  };
}

/** The shell's answer to one of the summaries of 'Mis datos', once (undefined if it did not ask). */
export function takeEarlySummary<K extends keyof AccountSummaries>(summary: K): AccountSummaries[K] {
  const answer = earlySummaries[summary];
  earlySummaries = { ...earlySummaries, [summary]: undefined };
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
 * 'Mis datos' (`pathname`), its summaries.
 */
export function askSessionEarly(pathname = ""): void {
  const token = getToken();
  if (!token) return;
  const patient = getStoredUser()?.roleType === 2;
  if (patient && pathname.replace(/\/+$/, "") === ACCOUNT_SETTINGS_PATH) earlySummaries = askAccountSummaries();
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
