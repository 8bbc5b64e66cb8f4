import {
  isApplicableField,
  requestFieldLabels,
  RIGHTS_REQUEST_DEADLINE_DAYS,
  rightsRequestMessages,
  ZCreateRightsRequest,
  ZStaffRightsRequestsInput,
  ZUpdateRightsRequest,
  type RightsRequestDto,
  type RightsRequestPage,
} from "../../contract/data-rights.schemas.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { requireStaffActor, visibleUsersWhere } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { chileDeadline } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";
import { endOtherSessions } from "../../lib/sessions.ts";
import { closePortalAccount } from "../../db/users.repository.ts";
import { turnOffAllNotices } from "../../lib/notice-preferences.ts";
import { endCaregiverLinksOf, mailCaregiverLinkChange } from "../../lib/caregiver-link-changes.ts";
import { requirePatientUser } from "./patient-scope.ts";
import { sendRightsRequestMail } from "./rights-mail.ts";
import { applyRectification } from "../../lib/rectification.ts";

// 'Solicitudes' (issue 28, Law 21.719): a patient asks for rectification of a field they cannot edit, opposition to
// e-mail notices, or the closing of their portal account; staff move each request through recibida → en curso →
// resuelta / rechazada within the legal deadline, and the patient gets a mail on every change.

const requestSelect = {
  id: true,
  kind: true,
  field: true,
  correctValue: true,
  details: true,
  status: true,
  rejectionReason: true,
  resolution: true,
  resolvedAt: true,
  receivedAt: true,
  dueAt: true,
  user: {
    select: {
      id: true,
      rut: true,
      firstName: true,
      lastName: true,
      email: true,
      phoneNumber: true,
      secondName: true,
      secondLastName: true,
    },
  },
} as const satisfies Prisma.RightsRequestSelect;
type RequestRow = Prisma.RightsRequestGetPayload<{ select: typeof requestSelect }>;

const isFinished = (status: string) => status === "resolved" || status === "rejected";

function toDto(row: RequestRow, now = new Date()): RightsRequestDto {
  return {
    id: row.id,
    kind: row.kind,
    field: row.field,
    correctValue: row.correctValue,
    details: row.details,
    status: row.status,
    rejectionReason: row.rejectionReason,
    resolution: row.resolution,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    overdue: !isFinished(row.status) && row.dueAt < now,
    patient: { id: row.user.id, rut: row.user.rut, name: [row.user.firstName, row.user.lastName].filter(Boolean).join(" ") },
  };
}

/**
 * Resolving a rectification (issue 45 §5): the RUT or a personal datum is changed to the value asked for, through the
 * users service (audited 'user.update'), once staff confirm it (applyChange); 'Otro dato' lives outside the portal,
 * so staff say what they corrected and where (reason). Returns what the patient is told was done. A refusal of the
 * value (invalid, a RUT in use) leaves the request open, to be rejected with its reason.
 */
async function resolveRectification(
  deps: AppDeps,
  user: SessionUser,
  current: RequestRow,
  change: { applyChange?: boolean; reason?: string },
  meta: RequestMeta,
): Promise<string> {
  const label = requestFieldLabels[current.field ?? ""] ?? "Dato";
  if (!isApplicableField(current.field)) {
    if (!change.reason) throw new AppError("BAD_REQUEST", rightsRequestMessages.noteRequired);
    return `Lo que corrigió la clínica: ${change.reason}`;
  }
  if (change.applyChange !== true) throw new AppError("BAD_REQUEST", rightsRequestMessages.confirmChange);
  const stored = await applyRectification(deps, user, current.user.id, current.field!, current.correctValue ?? "", meta);
  return `Se corrigió su ${label === "RUT" ? label : label.toLowerCase()}: ahora es ${stored}.`;
}

/** A patient's new request; one open request of each kind at a time (409). The patient gets the receipt by mail. */
export async function createRightsRequest(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<RightsRequestDto> {
  const patient = requirePatientUser(user);
  const request = parseInput(ZCreateRightsRequest, input);
  const open = await deps.prisma.rightsRequest.count({
    where: { userId: patient.id, kind: request.kind, status: { in: ["received", "in_progress"] } },
  });
  if (open > 0) throw new AppError("CONFLICT", rightsRequestMessages.alreadyOpen);
  const now = new Date();
  const row = await deps.prisma.rightsRequest.create({
    data: {
      userId: patient.id,
      kind: request.kind,
      field: request.kind === "rectification" ? request.field : null,
      correctValue: request.kind === "rectification" ? request.correctValue : null,
      details: request.details,
      receivedAt: now,
      dueAt: chileDeadline(now, RIGHTS_REQUEST_DEADLINE_DAYS),
    },
    select: requestSelect,
  });
  const dto = toDto(row, now);
  await audit(deps, user, meta, { action: "rights.request.create", resource: "rights-request", target: patient, after: request });
  sendRightsRequestMail(deps, row.user.email, dto);
  return dto;
}

/** The signed-in patient's requests, newest first. */
export async function listOwnRightsRequests(deps: AppDeps, user: SessionUser): Promise<RightsRequestDto[]> {
  const patient = requirePatientUser(user);
  const rows = await deps.prisma.rightsRequest.findMany({
    where: { userId: patient.id },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    select: requestSelect,
  });
  return rows.map((row) => toDto(row));
}

/** 'Solicitudes de pacientes': the requests staff may handle (executives: patients of their clinics), nearest deadline first. */
export async function listStaffRightsRequests(
  deps: AppDeps,
  user: SessionUser,
  input: unknown,
  meta: RequestMeta,
): Promise<RightsRequestPage> {
  const actor = await requireStaffActor(deps, user, meta, "rights.request.list");
  const { status, page, limit } = parseInput(ZStaffRightsRequestsInput, input);
  const where: Prisma.RightsRequestWhereInput = { status, user: visibleUsersWhere(actor) };
  const [total, rows] = await Promise.all([
    deps.prisma.rightsRequest.count({ where }),
    deps.prisma.rightsRequest.findMany({
      where,
      orderBy: [{ dueAt: "asc" }, { id: "asc" }],
      skip: (page - 1) * limit,
      take: limit,
      select: requestSelect,
    }),
  ]);
  await audit(deps, user, meta, { action: "rights.request.list", resource: "rights-request", after: { status, page } });
  return { requests: rows.map((row) => toDto(row)), page, total };
}

/**
 * Staff move a request on (en curso, resuelta, rechazada with a reason); a finished one is not changed again (409).
 * Resolving an opposition switches off every e-mail notice ('Mi cuenta' → 'Avisos', issue 31); resolving a closure closes the portal account: login
 * refused, every session ended, every caregiver link where they are the dependent or the caregiver ended (issue 42),
 * contact data removed (after the mail that tells the patient, sent to the address it had).
 */
export async function updateRightsRequest(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<RightsRequestDto> {
  const actor = await requireStaffActor(deps, user, meta, "rights.request.update");
  const change = parseInput(ZUpdateRightsRequest, input);
  const current = await deps.prisma.rightsRequest.findFirst({
    where: { id: change.id, user: visibleUsersWhere(actor) },
    select: requestSelect,
  });
  if (!current) {
    await audit(deps, user, meta, {
      action: "rights.request.update",
      resource: "rights-request",
      resourceId: change.id,
      outcome: "denied",
    });
    throw new AppError("NOT_FOUND", rightsRequestMessages.notFound);
  }
  if (isFinished(current.status)) throw new AppError("CONFLICT", rightsRequestMessages.finished);

  const resolution =
    change.status === "resolved" && current.kind === "rectification" ? await resolveRectification(deps, user, current, change, meta) : null;
  const now = new Date();
  let endedLinks: Array<{ id: number; dependentId: number }> = [];
  const updated = await deps.prisma.$transaction(async (tx) => {
    const row = await tx.rightsRequest.update({
      where: { id: current.id },
      data: {
        status: change.status,
        rejectionReason: change.status === "rejected" ? change.reason : null,
        resolution,
        resolvedAt: change.status === "in_progress" ? null : now,
        handledById: user.id,
      },
      select: requestSelect,
    });
    if (change.status === "resolved" && current.kind === "email_opposition") await turnOffAllNotices(tx, current.user.id);
    if (change.status === "resolved" && current.kind === "account_closure") {
      await closePortalAccount(tx, current.user, now);
      await turnOffAllNotices(tx, current.user.id);
      await endOtherSessions(tx, current.user.id, "deactivated");
      endedLinks = await endCaregiverLinksOf(tx, current.user.id, user.id, now);
    }
    return row;
  });
  const dto = toDto(updated, now);
  await audit(deps, user, meta, {
    action: current.kind === "account_closure" && change.status === "resolved" ? "account.close" : "rights.request.update",
    resource: "rights-request",
    resourceId: current.id,
    patientId: current.user.id,
    before: { status: current.status },
    after: { status: change.status, reason: change.reason, resolution },
  });
  for (const link of endedLinks) {
    await audit(deps, user, meta, {
      action: "caregiver.revoke",
      resource: "CaregiverLink",
      resourceId: link.id,
      patientId: link.dependentId,
      after: { reason: "account_closure", closedUserId: current.user.id },
    });
    await mailCaregiverLinkChange(deps, link.id, "ended", { closedUserId: current.user.id });
  }
  // The address the patient had: a closed account's is gone from the portal once this mail is on its way.
  sendRightsRequestMail(deps, current.user.email, dto);
  return dto;
}
