import { caregiverMessages, ZCreateCaregiverLink, ZLinkId, ZRenewCaregiverLink, type CaregiverLinkDto } from "../../contract/caregivers.ts";
import { Role } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { dayToDate } from "../../contract/days.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { requireStaffActor, visibleUsersWhere, type StaffActor } from "../../lib/access.ts";
import { audit, type CaregiversAuditAction } from "../../lib/audit.ts";
import { mailCaregiverLinkChange } from "../../lib/caregiver-link-changes.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";
import { caregiverLinkSelect, checkExpiry, eighteenthBirthday, findLink, toCaregiverLinkDto } from "./caregiver-links.ts";

// Staff side of caregiver links (issue 30), on the dependent's edit page ('Cuidadores'): staff of the dependent's
// clinics (admins, any patient) create, renew and revoke them. Every change is audited with the dependent as patient.

/**
 * The dependent if the staff actor may see them: a patient registered with one of the executive's clinics (any
 * patient for an admin). Anyone else answers 404 like a missing one (audited as denied).
 */
async function visibleDependent(deps: AppDeps, actor: StaffActor, meta: RequestMeta, action: CaregiversAuditAction, id: number) {
  const dependent = await deps.prisma.user.findFirst({
    where: { AND: [{ id, roleType: Role.patient }, visibleUsersWhere(actor)] },
    select: { id: true, birthDate: true },
  });
  if (!dependent) {
    await audit(deps, actor.user, meta, { action, resource: "CaregiverLink", patientId: id, outcome: "denied" });
    throw new AppError("NOT_FOUND", caregiverMessages.dependentNotFound);
  }
  return dependent;
}

const linkOf = async (deps: AppDeps, id: number) =>
  toCaregiverLinkDto(await deps.prisma.caregiverLink.findUniqueOrThrow({ where: { id }, select: caregiverLinkSelect }));

/** GET the dependent's links, newest first (live, expired and revoked: the history staff answer questions with). */
export async function listDependentLinks(
  deps: AppDeps,
  user: SessionUser,
  rawDependentId: unknown,
  meta: RequestMeta,
): Promise<CaregiverLinkDto[]> {
  const actor = await requireStaffActor(deps, user, meta, "caregiver.list");
  const dependent = await visibleDependent(deps, actor, meta, "caregiver.list", parseInput(ZLinkId, rawDependentId));
  const rows = await deps.prisma.caregiverLink.findMany({
    where: { dependentId: dependent.id },
    select: caregiverLinkSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  await audit(deps, user, meta, { action: "caregiver.list", resource: "CaregiverLink", patientId: dependent.id });
  return rows.map((row) => toCaregiverLinkDto(row));
}

/**
 * POST a link: the caregiver (a patient, by RUT) may act for the dependent in the chosen parts until `expiresOn`. A
 * minor's link ends at the latest the day they turn 18: from their birth date, or (none on file) the day staff state.
 */
export async function createCaregiverLink(
  deps: AppDeps,
  user: SessionUser,
  rawDependentId: unknown,
  rawInput: unknown,
  meta: RequestMeta,
): Promise<CaregiverLinkDto> {
  const actor = await requireStaffActor(deps, user, meta, "caregiver.create");
  const dependent = await visibleDependent(deps, actor, meta, "caregiver.create", parseInput(ZLinkId, rawDependentId));
  const input = parseInput(ZCreateCaregiverLink, rawInput);
  const caregiver = await deps.prisma.user.findUnique({
    where: { rut: normalizeRut(input.caregiverRut) },
    select: { id: true, roleType: true, closedAt: true },
  });
  if (!caregiver || caregiver.roleType !== Role.patient || caregiver.closedAt)
    throw new AppError("BAD_REQUEST", caregiverMessages.caregiverNotFound);
  if (caregiver.id === dependent.id) throw new AppError("BAD_REQUEST", caregiverMessages.samePerson);

  let minorUntil: string | null = null;
  if (dependent.birthDate) {
    const eighteen = eighteenthBirthday(dependent.birthDate);
    minorUntil = eighteen > chileToday() ? eighteen : null;
  } else if (input.minor) {
    if (!input.minorUntil) throw new AppError("BAD_REQUEST", caregiverMessages.minorUntilRequired);
    minorUntil = input.minorUntil;
  }
  const expiresOn = checkExpiry(input.expiresOn, minorUntil, { renewal: false });
  const live = await deps.prisma.caregiverLink.count({
    where: { caregiverId: caregiver.id, dependentId: dependent.id, revokedAt: null, expiresOn: { gte: dayToDate(chileToday()) } },
  });
  if (live) throw new AppError("CONFLICT", caregiverMessages.alreadyLinked);

  const created = await deps.prisma.caregiverLink.create({
    data: {
      caregiverId: caregiver.id,
      dependentId: dependent.id,
      relationship: input.relationship,
      documentSeen: input.documentSeen,
      parts: [...new Set(input.parts)],
      minorUntil: minorUntil ? dayToDate(minorUntil) : null,
      expiresOn: dayToDate(expiresOn),
      createdById: user.id,
    },
    select: { id: true },
  });
  const dto = await linkOf(deps, created.id);
  await audit(deps, user, meta, {
    action: "caregiver.create",
    resource: "CaregiverLink",
    resourceId: dto.id,
    patientId: dependent.id,
    after: dto,
  });
  await mailCaregiverLinkChange(deps, dto.id, "created");
  return dto;
}

/** The link, if the staff actor may see its dependent and it is not revoked (a revoked link is never revived). */
async function changeableLink(deps: AppDeps, actor: StaffActor, meta: RequestMeta, action: CaregiversAuditAction, rawId: unknown) {
  const link = await findLink(deps, parseInput(ZLinkId, rawId));
  await visibleDependent(deps, actor, meta, action, link.dependentId);
  if (link.revokedAt) throw new AppError("CONFLICT", caregiverMessages.alreadyRevoked);
  return link;
}

/** PUT a new end date (renewal): also past a minor's 18th birthday, which is what renewing a minor's link means. */
export async function renewCaregiverLink(deps: AppDeps, user: SessionUser, rawId: unknown, rawInput: unknown, meta: RequestMeta) {
  const actor = await requireStaffActor(deps, user, meta, "caregiver.renew");
  const link = await changeableLink(deps, actor, meta, "caregiver.renew", rawId);
  const { expiresOn } = parseInput(ZRenewCaregiverLink, rawInput);
  checkExpiry(expiresOn, link.minorUntil?.toISOString().slice(0, 10) ?? null, { renewal: true });
  const before = toCaregiverLinkDto(link);
  await deps.prisma.caregiverLink.update({ where: { id: link.id }, data: { expiresOn: dayToDate(expiresOn), renewedAt: new Date() } });
  const after = await linkOf(deps, link.id);
  await audit(deps, user, meta, {
    action: "caregiver.renew",
    resource: "CaregiverLink",
    resourceId: link.id,
    patientId: link.dependentId,
    before,
    after,
  });
  await mailCaregiverLinkChange(deps, link.id, "renewed");
  return after;
}

/** Ends a link now, for staff (any link of their patients) and for the dependent (see revokeMyCaregiverLink). */
export async function endLink(deps: AppDeps, actor: SessionUser, meta: RequestMeta, link: Awaited<ReturnType<typeof findLink>>) {
  const before = toCaregiverLinkDto(link);
  await deps.prisma.caregiverLink.update({ where: { id: link.id }, data: { revokedAt: new Date(), revokedById: actor.id } });
  const after = await linkOf(deps, link.id);
  await audit(deps, actor, meta, {
    action: "caregiver.revoke",
    resource: "CaregiverLink",
    resourceId: link.id,
    patientId: link.dependentId,
    before,
    after,
  });
  await mailCaregiverLinkChange(deps, link.id, "ended");
  return after;
}

/** DELETE (revoke) a link: it stops working at once, on every instance (each request reads it again). */
export async function revokeCaregiverLink(deps: AppDeps, user: SessionUser, rawId: unknown, meta: RequestMeta): Promise<CaregiverLinkDto> {
  const actor = await requireStaffActor(deps, user, meta, "caregiver.revoke");
  const link = await changeableLink(deps, actor, meta, "caregiver.revoke", rawId);
  return endLink(deps, user, meta, link);
}
