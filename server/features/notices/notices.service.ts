import { z } from "zod";
import { clinicByKey, DEFAULT_CLINIC_KEY, type Clinic } from "../../contract/clinics.ts";
import { Role } from "../../contract/roles.ts";
import type { AppDeps } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import type { MailMessage } from "../../providers/mail/mail.provider.ts";
import { VALIDATED } from "../../contract/results.dto.ts";
import { releasedLabOrders } from "../results/released-results.ts";
import { newBillNotice, newResultNotice } from "./notice-mails.ts";
import { noticePreferencesOf, setNoticePreferences, type NoticePreferences } from "./notice-preferences.ts";

// E-mail notices of new results and bills (issue 31). Each notice is claimed in SentNotice (unique per patient, kind
// and reference) before its mail is queued, so it goes once whichever run or instance finds it first; a mail that
// cannot be queued gives its claim back, and the next run tries again.

export const ZNoticePreferencesInput = z.object({ results: z.boolean().optional(), bills: z.boolean().optional() }).strict();

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

type NoticeRef = { kind: "lab" | "imaging" | "bill"; ref: string };

/** Claims the notice and queues its mail; false when it was already sent (or being sent). */
async function sendOnce(deps: AppDeps, userId: number, notice: NoticeRef, mail: () => MailMessage): Promise<boolean> {
  const claimed = await deps.prisma.sentNotice.createMany({ data: [{ userId, ...notice }], skipDuplicates: true });
  if (claimed.count === 0) return false;
  try {
    await deps.providers.mail.send(mail());
  } catch (error) {
    await deps.prisma.sentNotice.deleteMany({ where: { userId, ...notice } });
    throw error;
  }
  return true;
}

const portalOf = (deps: AppDeps, clinic: Clinic) => clinicPortalUrl(deps.config, clinic);

/** The clinic a notice links to: the one that owns the result or bill, else the patient's own clinic, else the default. */
async function clinicFor(deps: AppDeps, userId: number, ownerKey: string | null): Promise<Clinic> {
  const owner = clinicByKey(ownerKey);
  if (owner) return owner;
  const registered = await deps.prisma.patientClinic.findFirst({ where: { userId }, select: { codeClinicStr: true } });
  return clinicByKey(registered?.codeClinicStr) ?? clinicByKey(DEFAULT_CLINIC_KEY)!;
}

/** Staff loaded a bill: its patient gets 'Tiene una nueva cuenta hospitalaria' (once, unless turned off). */
export async function noticeNewBill(deps: AppDeps, billId: number): Promise<boolean> {
  const bill = await deps.prisma.bill.findUnique({
    where: { id: billId },
    select: { clinicCode: true, user: { select: { id: true, email: true } } },
  });
  if (!bill?.user.email) return false;
  if (!(await noticePreferencesOf(deps.prisma, bill.user.id)).bills) return false;
  const clinic = await clinicFor(deps, bill.user.id, bill.clinicCode);
  return sendOnce(deps, bill.user.id, { kind: "bill", ref: String(billId) }, () =>
    newBillNotice(bill.user.email, clinic.title, `${portalOf(deps, clinic)}/dashboard/my-bills`),
  );
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
 * The scheduled poll: asks the laboratory and imaging providers (through their circuit breakers) for each patient who
 * wants result notices, and sends what is new. A provider that is down ends the run; the next one picks up from there.
 */
export async function pollNewResultNotices(deps: AppDeps): Promise<{ patients: number; sent: number }> {
  const patients = await deps.prisma.user.findMany({
    where: { roleType: Role.patient, email: { not: "" }, OR: [{ noticePreference: null }, { noticePreference: { results: true } }] },
    select: { id: true, rut: true, email: true },
    orderBy: { id: "asc" },
  });
  let sent = 0;
  for (const patient of patients) sent += await noticeNewResultsOf(deps, patient);
  return { patients: patients.length, sent };
}
