import { caregiverMessages, ZLinkId, type CaregiverLinkDto, type MyCaregiverLinks } from "../../contract/caregivers.ts";
import { dayToDate } from "../../contract/days.ts";
import { formatRut } from "../../contract/rut.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { actingForPatient, deny, isPatient } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { AppError, forbiddenMessage } from "../../lib/errors.ts";
import { caregiverLinkSelect, findLink, fullName, isMinorsGuardianLink, toCaregiverLinkDto } from "./caregiver-links.ts";
import { endLink } from "./caregivers.service.ts";

// Patient side of caregiver links (issue 30): whom the patient cares for ('Ver como:'), who cares for them ('Mi
// cuenta'), revoking an adult's link, and the scheduling page opened for a dependent.

/** The patient's live links as caregiver, and the unrevoked links of those who care for them. */
export async function myCaregiverLinks(deps: AppDeps, user: SessionUser): Promise<MyCaregiverLinks> {
  if (!isPatient(user)) throw new AppError("FORBIDDEN", forbiddenMessage);
  const today = dayToDate(chileToday());
  const [dependents, caregivers] = await Promise.all([
    deps.prisma.caregiverLink.findMany({
      where: { caregiverId: user.id, revokedAt: null, expiresOn: { gte: today } },
      select: caregiverLinkSelect,
      orderBy: { id: "asc" },
    }),
    deps.prisma.caregiverLink.findMany({
      where: { dependentId: user.id, revokedAt: null },
      select: caregiverLinkSelect,
      orderBy: { id: "asc" },
    }),
  ]);
  return { dependents: dependents.map((row) => toCaregiverLinkDto(row)), caregivers: caregivers.map((row) => toCaregiverLinkDto(row)) };
}

/** The dependent ends a caregiver's link, unless it is their parent's or legal guardian's while they are a minor. */
export async function revokeMyCaregiverLink(
  deps: AppDeps,
  user: SessionUser,
  rawId: unknown,
  meta: RequestMeta,
): Promise<CaregiverLinkDto> {
  if (!isPatient(user)) throw new AppError("FORBIDDEN", forbiddenMessage);
  const link = await findLink(deps, parseInput(ZLinkId, rawId)).catch(() => null);
  if (!link || link.dependentId !== user.id) throw new AppError("NOT_FOUND", caregiverMessages.linkNotFound);
  if (link.revokedAt) throw new AppError("CONFLICT", caregiverMessages.alreadyRevoked);
  if (isMinorsGuardianLink(link))
    await deny(
      deps,
      user,
      meta,
      { action: "caregiver.revoke", resourceId: link.id, patientId: user.id },
      caregiverMessages.guardianOfMinor,
    );
  return endLink(deps, user, meta, link);
}

/**
 * 'Agendamiento' for the patient the caller acts for: the clinic's scheduling page books for whoever fills it in, so
 * the portal names the patient above it; opening it for a dependent needs a link covering 'agendamiento' (audited).
 */
export async function schedulingPatient(
  deps: AppDeps,
  user: SessionUser,
  meta: RequestMeta,
): Promise<{ id: number; rut: string; name: string }> {
  const scope = await actingForPatient(deps, user, meta, "agendamiento", "scheduling.open");
  if (scope.linkId !== null)
    await audit(deps, user, meta, {
      action: "scheduling.open",
      resource: "CaregiverLink",
      resourceId: scope.linkId,
      scope,
    });
  return {
    id: scope.patient.id,
    rut: formatRut(scope.patient.rut),
    name: fullName({ ...scope.patient, secondName: null, secondLastName: null }),
  };
}
