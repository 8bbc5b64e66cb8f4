import { clinicByKey, DEFAULT_CLINIC_KEY, type Clinic } from "../contract/clinics.ts";
import type { AppDeps } from "../deps.ts";
import type { MailMessage } from "../providers/mail/mail.provider.ts";
import { clinicPortalUrl } from "./clinic-urls.ts";
import { newBillNotice } from "./notice-mails.ts";
import { noticePreferencesOf } from "./notice-preferences.ts";

// E-mail notices to a patient (issue 31), shared by the features that cause them (bills, the results poll). Each
// notice is claimed in SentNotice (unique per patient, kind and reference) before its mail is queued, so it goes once
// whichever run or instance finds it first; a mail that cannot be queued gives its claim back, and the next try sends it.

export type NoticeRef = { kind: "lab" | "imaging" | "bill" | "appointment"; ref: string };

/** Claims the notice and queues its mail; false when it was already sent (or being sent). */
export async function sendOnce(deps: AppDeps, userId: number, notice: NoticeRef, mail: () => MailMessage): Promise<boolean> {
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

export const portalOf = (deps: AppDeps, clinic: Clinic) => clinicPortalUrl(deps.config, clinic);

/** The clinic a notice links to: the one that owns the result or bill, else the patient's own clinic, else the default. */
export async function clinicFor(deps: AppDeps, userId: number, ownerKey: string | null): Promise<Clinic> {
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
