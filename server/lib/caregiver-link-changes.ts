import { caregiverPartLabels, type CaregiverPart } from "../contract/caregivers.ts";
import type { AppDeps } from "../deps.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { escapeHtml, type MailMessage } from "../providers/mail/mail.provider.ts";
import { sendAccountNotice } from "./account-notices.ts";
import { chileToday } from "./chile-time.ts";

// Changes to caregiver links that more than the caregivers feature makes (issue 42, point 2): the mail about a link
// being created, renewed or ended — the dependent learns who may act for them; for a minor, the caregiver is told
// instead — and the end of every link of an account being closed ('Solicitudes'), in the closure's transaction.
// Mails go after the answer through providers.mail (the durable queue when it is on), like every account notice.

interface PersonName {
  firstName: string | null;
  secondName: string | null;
  lastName: string | null;
  secondLastName: string | null;
}
export const fullName = (p: PersonName) => [p.firstName, p.secondName, p.lastName, p.secondLastName].filter(Boolean).join(" ");

/** Whether the dependent is a minor today (Chile), by the day they turn 18 the link keeps. */
export const isMinorToday = (minorUntil: Date | null, today = chileToday()) =>
  !!minorUntil && minorUntil.toISOString().slice(0, 10) > today;

/**
 * Ends, at `at`, every live link where the person is the dependent or the caregiver (their account is being closed:
 * the dependent can no longer sign in to revoke a link, and a closed caregiver acts for no one). Run inside the
 * closure's transaction; returns the ended links for the audit and the mails.
 */
export async function endCaregiverLinksOf(
  tx: Pick<PrismaClient, "caregiverLink">,
  userId: number,
  endedById: number,
  at: Date,
): Promise<Array<{ id: number; dependentId: number }>> {
  const live = await tx.caregiverLink.findMany({
    where: { revokedAt: null, OR: [{ dependentId: userId }, { caregiverId: userId }] },
    select: { id: true, dependentId: true },
    orderBy: { id: "asc" },
  });
  if (live.length > 0)
    await tx.caregiverLink.updateMany({
      where: { id: { in: live.map((link) => link.id) }, revokedAt: null },
      data: { revokedAt: at, revokedById: endedById },
    });
  return live;
}

export type LinkChange = "created" | "renewed" | "ended";

const mailPerson = { select: { firstName: true, secondName: true, lastName: true, secondLastName: true, email: true } } as const;
const linkForMail = {
  parts: true,
  expiresOn: true,
  minorUntil: true,
  caregiver: mailPerson,
  dependent: mailPerson,
} as const;

interface LinkForMail {
  parts: string[];
  expiresOn: Date;
  minorUntil: Date | null;
  caregiver: { email: string } & PersonName;
  dependent: { email: string } & PersonName;
}

const partsText = (parts: string[]) => parts.map((part) => caregiverPartLabels[part as CaregiverPart] ?? part).join(", ");
/** "31-12-2027": the link's last day as stored (a calendar date, no time zone to shift it). */
const until = (link: LinkForMail) => link.expiresOn.toISOString().slice(0, 10).split("-").reverse().join("-");

const subjects: Record<LinkChange, string> = {
  created: "Nuevo vínculo de cuidador",
  renewed: "Vínculo de cuidador renovado",
  ended: "Vínculo de cuidador terminado",
};

/** To the dependent: who may act for them, in what, until when; or that the link ended. */
function toDependent(change: LinkChange, link: LinkForMail): string[] {
  const caregiver = fullName(link.caregiver);
  const lines: Record<LinkChange, string> = {
    created: `La clínica registró a ${caregiver} como su cuidador(a) en el Portal Pacientes, hasta el ${until(link)}. Esta persona puede ver y usar en su nombre: ${partsText(link.parts)}.`,
    renewed: `La clínica renovó el vínculo de ${caregiver} como su cuidador(a) en el Portal Pacientes hasta el ${until(link)}. Esta persona puede ver y usar en su nombre: ${partsText(link.parts)}.`,
    ended: `El vínculo de ${caregiver} como su cuidador(a) en el Portal Pacientes terminó. Esta persona ya no puede ver sus datos ni actuar en su nombre.`,
  };
  return [
    lines[change],
    "Puede ver quién actúa en su nombre en 'Mi cuenta', sección 'Mis cuidadores'.",
    "Si usted no pidió este cambio, comuníquese con la clínica.",
  ];
}

/** To the caregiver of a minor: for whom they may act, in what, until when; or that the link ended. */
function toCaregiver(change: LinkChange, link: LinkForMail): string[] {
  const dependent = fullName(link.dependent);
  const lines: Record<LinkChange, string> = {
    created: `La clínica registró su vínculo de cuidador(a) de ${dependent} en el Portal Pacientes, hasta el ${until(link)}. Puede actuar por esta persona en: ${partsText(link.parts)}. Elíjala en 'Ver como:' al ingresar.`,
    renewed: `La clínica renovó su vínculo de cuidador(a) de ${dependent} en el Portal Pacientes hasta el ${until(link)}. Puede actuar por esta persona en: ${partsText(link.parts)}.`,
    ended: `Su vínculo de cuidador(a) de ${dependent} en el Portal Pacientes terminó. Ya no puede ver sus datos ni actuar en su nombre.`,
  };
  return [lines[change], "Si usted no esperaba este cambio, comuníquese con la clínica."];
}

export type LinkParty = "dependent" | "caregiver";

/** Whom a change of the link is told to: the dependent, or the caregiver while the dependent is a minor. */
export const linkMailRecipient = (link: Pick<LinkForMail, "minorUntil">, today = chileToday()): LinkParty =>
  isMinorToday(link.minorUntil, today) ? "caregiver" : "dependent";

/** The mail for that change of the link to that party; null when they have no address (e.g. a minor registered without one). */
export function caregiverLinkMail(change: LinkChange, link: LinkForMail, to: LinkParty): MailMessage | null {
  const address = link[to].email;
  if (!address) return null;
  const paragraphs = ["Hola:", ...(to === "caregiver" ? toCaregiver(change, link) : toDependent(change, link))];
  return {
    to: address,
    subject: `Portal Pacientes - ${subjects[change]}`,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join(""),
  };
}

/**
 * Reads the link as it is now and sends its mail after the answer (tracked background work; a failure is logged).
 * `closedUserId`: the link ends because that person's account was closed; their own mail says so, so the other
 * party of the link is told instead when the rule would name them.
 */
export async function mailCaregiverLinkChange(
  deps: Pick<AppDeps, "prisma" | "providers" | "background">,
  linkId: number,
  change: LinkChange,
  options: { closedUserId?: number } = {},
): Promise<void> {
  const link = await deps.prisma.caregiverLink.findUnique({
    where: { id: linkId },
    select: { ...linkForMail, caregiverId: true, dependentId: true },
  });
  if (!link) return;
  let to = linkMailRecipient(link);
  const closed: LinkParty | null =
    options.closedUserId === link.dependentId ? "dependent" : options.closedUserId === link.caregiverId ? "caregiver" : null;
  if (to === closed) to = closed === "dependent" ? "caregiver" : "dependent";
  const message = caregiverLinkMail(change, link, to);
  if (message) sendAccountNotice(deps, message, `caregiver link ${change}`);
}
