import type { PrismaClient } from "../generated/prisma/client.ts";

// Which e-mail notices a patient gets (issue 31). One row per patient in NoticePreference; no row means every kind is
// on. This module is the only writer, so other features (the opposition request of the rights issue) switch notices
// off through it.

export type NoticeKind = "results" | "bills" | "appointments";
export type NoticePreferences = Record<NoticeKind, boolean>;

const allOn: NoticePreferences = { results: true, bills: true, appointments: true };
const selected = { results: true, bills: true, appointments: true } as const;

/** The client or an open transaction (a request's resolution switches notices off inside its own). */
type NoticeStore = Pick<PrismaClient, "noticePreference">;

export async function noticePreferencesOf(prisma: NoticeStore, userId: number): Promise<NoticePreferences> {
  const row = await prisma.noticePreference.findUnique({ where: { userId }, select: selected });
  return row ?? allOn;
}

/** Changes some kinds, keeps the others; returns the preferences as stored. */
export async function setNoticePreferences(
  prisma: NoticeStore,
  userId: number,
  changes: Partial<NoticePreferences>,
): Promise<NoticePreferences> {
  return prisma.noticePreference.upsert({
    where: { userId },
    create: { ...allOn, ...changes, userId },
    update: changes,
    select: selected,
  });
}

/** Every e-mail notice off for this patient (e.g. when an opposition to e-mail notices is granted). */
export function turnOffAllNotices(prisma: NoticeStore, userId: number): Promise<NoticePreferences> {
  return setNoticePreferences(prisma, userId, { results: false, bills: false, appointments: false });
}
