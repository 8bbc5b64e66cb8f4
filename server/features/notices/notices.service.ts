import { z } from "zod";
import { Role } from "../../contract/roles.ts";
import type { AppDeps } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { VALIDATED } from "../../contract/results.dto.ts";
import { releasedLabOrders } from "../../lib/released-results.ts";
import { newResultNotice } from "../../lib/notice-mails.ts";
import { clinicFor, portalOf, sendOnce } from "../../lib/patient-notices.ts";
import { noticePreferencesOf, setNoticePreferences, type NoticePreferences } from "../../lib/notice-preferences.ts";

// 'Mi cuenta' → 'Avisos' and the scheduled search for new results (issue 31); each notice is sent once through
// lib/patient-notices.ts.

export const ZNoticePreferencesInput = z
  .object({ results: z.boolean().optional(), bills: z.boolean().optional(), appointments: z.boolean().optional() })
  .strict();

function requirePatientAccount(user: SessionUser): void {
  if (user.roleType !== Role.patient) throw new AppError("FORBIDDEN", forbiddenMessage);
}

/** 'Mi cuenta' → 'Avisos': the patient's notice preferences (every kind on until they turn one off). */
export async function getNoticePreferences(deps: AppDeps, user: SessionUser): Promise<NoticePreferences> {
  requirePatientAccount(user);
  return noticePreferencesOf(deps.prisma, user.id);
}

export async function updateNoticePreferences(deps: AppDeps, user: SessionUser, input: unknown): Promise<NoticePreferences> {
  requirePatientAccount(user);
  return setNoticePreferences(deps.prisma, user.id, parseInput(ZNoticePreferencesInput, input));
}

/** The schedule of the search for new results: RESULT_NOTICE_CRON, by default every 15 minutes (never in tests). */
export function noticeCron(config: Pick<AppDeps["config"], "RESULT_NOTICE_CRON" | "NODE_ENV">): string {
  return config.RESULT_NOTICE_CRON ?? (config.NODE_ENV === "test" ? "" : "*/15 * * * *");
}

function daysBack(today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

interface PatientToPoll {
  id: number;
  rut: string;
  email: string;
}

/** One patient's new final orders and reported studies of the look-back window: a notice for each not yet sent. */
async function noticeNewResultsOf(deps: AppDeps, patient: PatientToPoll): Promise<number> {
  const today = chileToday();
  const range = { from: daysBack(today, deps.config.RESULT_NOTICE_LOOKBACK_DAYS), to: today };
  let sent = 0;
  // Through the release rules: an order holding a result back (in person, or not yet due) is announced when it is not.
  const orders = await releasedLabOrders(deps, patient.rut, range);
  for (const order of orders.filter((candidate) => candidate.status === VALIDATED && !candidate.withheld)) {
    const clinic = await clinicFor(deps, patient.id, order.clinicKey);
    const portal = `${portalOf(deps, clinic)}/dashboard/laboratory`;
    if (
      await sendOnce(deps, patient.id, { kind: "lab", ref: order.orderNumber }, () => newResultNotice(patient.email, clinic.title, portal))
    )
      sent++;
  }
  const studies = await deps.providers.imaging.searchStudies(patient.rut, range);
  for (const study of studies.filter((candidate) => candidate.hasReport)) {
    const clinic = await clinicFor(deps, patient.id, null);
    const portal = `${portalOf(deps, clinic)}/dashboard/imaging`;
    if (
      await sendOnce(deps, patient.id, { kind: "imaging", ref: study.accessionNumber }, () =>
        newResultNotice(patient.email, clinic.title, portal),
      )
    )
      sent++;
  }
  return sent;
}

/**
 * How long one search may run: less than its job's 15 minutes (notice-jobs.ts), after which pg-boss would count it
 * failed and hand a retry to another worker while it still ran. The next run goes on from the first patient not
 * reached (JobCursor); those already notified cost a run only their two provider calls.
 */
export const NOTICE_RUN_LIMIT_MS = 13 * 60_000;

const BACKLOG_WAIT_MS = 1_000;

export interface NoticeRunResult {
  patients: number;
  /** Patients asked about before the run ended. */
  reached: number;
  sent: number;
  ended: "done" | "time limit";
}

/** The search's row in JobCursor. */
export const NOTICE_SEARCH_CURSOR = "result-notices";
/** Patients read per query (a clinic's 100,000 are not held in memory at once); the place is kept after each. */
export const NOTICE_SEARCH_PAGE = 200;

/**
 * The scheduled poll: asks the laboratory and imaging providers (through their circuit breakers) for each patient who
 * wants result notices, and sends what is new, pausing RESULT_NOTICE_PAUSE_MS between patients and waiting while the
 * mail queue holds more than RESULT_NOTICE_MAIL_BACKLOG mails. A provider that is down ends the run, and so does
 * NOTICE_RUN_LIMIT_MS; either way the run keeps the last patient it reached (JobCursor, also after each page, for a
 * run that is killed) and the next one goes on from the patient after. A run that reaches the last patient starts the
 * next lap from the first.
 */
export async function pollNewResultNotices(
  deps: AppDeps,
  {
    pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    now = Date.now,
  }: { pause?: (ms: number) => Promise<void>; now?: () => number } = {},
): Promise<NoticeRunResult> {
  const started = now();
  const wantsNotices = {
    roleType: Role.patient,
    email: { not: "" },
    OR: [{ noticePreference: null }, { noticePreference: { results: true } }],
  };
  const patients = await deps.prisma.user.count({ where: wantsNotices });
  const place = await deps.prisma.jobCursor.findUnique({ where: { job: NOTICE_SEARCH_CURSOR } });
  let after = place?.afterId ?? 0;
  const keepPlace = (afterId: number) =>
    deps.prisma.jobCursor.upsert({
      where: { job: NOTICE_SEARCH_CURSOR },
      create: { job: NOTICE_SEARCH_CURSOR, afterId },
      update: { afterId },
    });
  const timeIsUp = () => now() - started >= NOTICE_RUN_LIMIT_MS;
  let reached = 0;
  let sent = 0;
  try {
    for (;;) {
      const page: PatientToPoll[] = await deps.prisma.user.findMany({
        where: { ...wantsNotices, id: { gt: after } },
        select: { id: true, rut: true, email: true },
        orderBy: { id: "asc" },
        take: NOTICE_SEARCH_PAGE,
      });
      for (const patient of page) {
        if (reached > 0) {
          if (deps.config.RESULT_NOTICE_PAUSE_MS > 0) await pause(deps.config.RESULT_NOTICE_PAUSE_MS);
          while (!timeIsUp() && deps.mailQueue && (await deps.mailQueue.pending()) > deps.config.RESULT_NOTICE_MAIL_BACKLOG)
            await pause(BACKLOG_WAIT_MS);
          if (timeIsUp()) {
            await keepPlace(after);
            return { patients, reached, sent, ended: "time limit" };
          }
        }
        sent += await noticeNewResultsOf(deps, patient);
        reached++;
        after = patient.id;
      }
      if (page.length < NOTICE_SEARCH_PAGE) break;
      // A run killed here (kill -9, a deployment) is retried from this page, not from the run's start.
      await keepPlace(after);
    }
  } catch (error) {
    // A provider went down (or the database): the next run goes on from the patient it did not finish.
    await keepPlace(after).catch(() => {});
    throw error;
  }
  await keepPlace(0);
  return { patients, reached, sent, ended: "done" };
}
