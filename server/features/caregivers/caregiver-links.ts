import {
  CAREGIVER_LINK_MAX_YEARS,
  caregiverMessages,
  GUARDIAN_RELATIONSHIPS,
  type CaregiverLinkDto,
  type CaregiverPart,
  type Relationship,
} from "../../contract/caregivers.ts";
import { formatRut } from "../../contract/rut.ts";
import { addYears, isCalendarDay } from "../../contract/days.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";
import { fullName, isMinorToday } from "../../lib/caregiver-link-changes.ts";
import type { AppDeps } from "../../deps.ts";

// What staff and patients see of a caregiver link, and the date rules of a minor's link (issue 30).

const person = { select: { id: true, rut: true, firstName: true, secondName: true, lastName: true, secondLastName: true } } as const;

export const caregiverLinkSelect = {
  id: true,
  relationship: true,
  documentSeen: true,
  parts: true,
  expiresOn: true,
  minorUntil: true,
  createdAt: true,
  revokedAt: true,
  caregiver: person,
  dependent: person,
} as const;

type Person = {
  id: number;
  rut: string;
  firstName: string | null;
  secondName: string | null;
  lastName: string | null;
  secondLastName: string | null;
};
interface LinkRow {
  id: number;
  relationship: string;
  documentSeen: string;
  parts: string[];
  expiresOn: Date;
  minorUntil: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  caregiver: Person;
  dependent: Person;
}

export { fullName, isMinorToday };

const toPerson = (p: Person) => ({ id: p.id, rut: formatRut(p.rut), name: fullName(p) });
const day = (date: Date) => date.toISOString().slice(0, 10);

/** A minor's link with a parent or legal guardian: the minor cannot revoke it (staff can). */
export const isMinorsGuardianLink = (link: { relationship: string; minorUntil: Date | null }, today = chileToday()) =>
  isMinorToday(link.minorUntil, today) && GUARDIAN_RELATIONSHIPS.includes(link.relationship as Relationship);

export function toCaregiverLinkDto(link: LinkRow, today = chileToday()): CaregiverLinkDto {
  const state = link.revokedAt ? "revocado" : day(link.expiresOn) < today ? "vencido" : "vigente";
  return {
    id: link.id,
    caregiver: toPerson(link.caregiver),
    dependent: toPerson(link.dependent),
    relationship: link.relationship as Relationship,
    documentSeen: link.documentSeen,
    parts: link.parts as CaregiverPart[],
    expiresOn: day(link.expiresOn),
    minorUntil: link.minorUntil ? day(link.minorUntil) : null,
    createdAt: link.createdAt.toISOString(),
    revokedAt: link.revokedAt?.toISOString() ?? null,
    state,
    revocableByDependent: !isMinorsGuardianLink(link, today),
  };
}

/** The day someone born on `birthDate` turns 18 (a 29 February birthday counts from 1 March). */
export function eighteenthBirthday(birthDate: Date): string {
  const date = new Date(Date.UTC(birthDate.getUTCFullYear() + 18, birthDate.getUTCMonth(), birthDate.getUTCDate()));
  return day(date);
}

/**
 * The day a new or renewed link ends, checked against the rules: a real calendar day, not in the past; for a minor, not
 * after the day they turn 18 unless it is a renewal (staff renewing past 18 is the "unless renewed" of the issue);
 * for an adult, at most a year from today (renewable: issue 42). A renewal of a minor's link may reach a year past their
 * 18th birthday, when it becomes an adult's link.
 */
export function checkExpiry(expiresOn: string, minorUntil: string | null, options: { renewal: boolean }, today = chileToday()): string {
  if (!isCalendarDay(expiresOn)) throw new AppError("BAD_REQUEST", caregiverMessages.notACalendarDay);
  if (expiresOn < today) throw new AppError("BAD_REQUEST", caregiverMessages.expiresInPast);
  const minor = !!minorUntil && minorUntil > today;
  if (minor && !options.renewal) {
    if (expiresOn > minorUntil) throw new AppError("BAD_REQUEST", caregiverMessages.expiresAfterEighteen);
    return expiresOn;
  }
  const from = minor && minorUntil ? minorUntil : today;
  if (expiresOn > addYears(from, CAREGIVER_LINK_MAX_YEARS))
    throw new AppError("BAD_REQUEST", options.renewal ? caregiverMessages.renewedAtMostOneYear : caregiverMessages.adultAtMostOneYear);
  return expiresOn;
}

/** The link by id, with what the checks need, or 404. */
export async function findLink(deps: AppDeps, id: number) {
  const link = await deps.prisma.caregiverLink.findUnique({
    where: { id },
    select: { ...caregiverLinkSelect, dependentId: true, caregiverId: true },
  });
  if (!link) throw new AppError("NOT_FOUND", caregiverMessages.linkNotFound);
  return link;
}
