import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import {
  dataExportMessages,
  EXPORT_MIN_INTERVAL_MINUTES,
  EXPORT_OFFERED_HOURS,
  type DataExportDto,
  type DataExportState,
} from "../../contract/data-rights.schemas.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { sessionUserSelect, type SessionUser } from "../../http/authenticate.ts";
import { audit } from "../../lib/audit.ts";
import { chileToday, formatChileHourMinute } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";
import { issuingSession, linkStillOpens, signLink, verifyLink, ZSignedLinkQuery } from "../../lib/signed-links.ts";
import { gatherExport } from "./export-data.ts";
import { renderExportSummary } from "./export-summary.ts";
import { exportZipStream } from "./export-zip.ts";
import { ZExportId } from "../../contract/data-rights.schemas.ts";
import { requirePatientUser } from "./patient-scope.ts";

// 'Descargar mis datos' (issue 28, Law 21.719 access and portability). One click stores a DataExport row and prepares
// its parts in the background (deps.background: the work takes seconds, the patient waits on the page, and it needs no
// other instance, so it is not a job of the job engine, server/lib/job-engine.ts). A preparation that a restart cut
// short reads as failed after PREPARING_GIVEN_UP_MINUTES. The ZIP itself is built while it is downloaded.

const PREPARING_GIVEN_UP_MINUTES = 10;
const LINK_TTL_SECONDS = 10 * 60;
const MINUTE = 60_000;

type ExportRow = { id: string; status: "preparing" | "ready" | "failed"; createdAt: Date; expiresAt: Date };

function statusOf(row: ExportRow, now: Date): DataExportDto["status"] {
  if (row.status === "preparing" && now.getTime() - row.createdAt.getTime() > PREPARING_GIVEN_UP_MINUTES * MINUTE) return "failed";
  return row.status;
}

async function toDto(deps: AppDeps, user: SessionUser, row: ExportRow, now: Date): Promise<DataExportDto> {
  const status = statusOf(row, now);
  const token =
    status === "ready"
      ? await signLink(
          deps.config,
          { userId: user.id, tokenVersion: user.tokenVersion, purpose: "data-export", ref: row.id, sessionId: issuingSession(user) },
          LINK_TTL_SECONDS,
          now,
        )
      : null;
  return {
    id: row.id,
    status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    nextAllowedAt: new Date(row.createdAt.getTime() + EXPORT_MIN_INTERVAL_MINUTES * MINUTE).toISOString(),
    downloadUrl: token ? `/api/rcr/v1/patient/data-export/download/${row.id}?${new URLSearchParams({ token })}` : null,
  };
}

const latestOf = (deps: AppDeps, userId: number) =>
  deps.prisma.dataExport.findFirst({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, createdAt: true, expiresAt: true },
  });

/** The patient's latest export still offered (24 hours), or null. */
export async function dataExportState(deps: AppDeps, user: SessionUser, now = new Date()): Promise<DataExportState> {
  const patient = requirePatientUser(user);
  const latest = await latestOf(deps, patient.id);
  return { latest: latest && latest.expiresAt > now ? await toDto(deps, patient, latest, now) : null };
}

/** Prepares the parts and marks the row ready (or failed); audited as the portal's own work. */
async function prepareExport(deps: AppDeps, exportId: string, userId: number): Promise<void> {
  try {
    const now = new Date();
    const gathered = await gatherExport(deps, userId, now);
    const summaryPdf = await renderExportSummary(gathered.document);
    await deps.prisma.dataExport.update({
      where: { id: exportId },
      data: {
        status: "ready",
        readyAt: new Date(),
        datosJson: JSON.stringify(gathered.document, null, 2),
        labJson: JSON.stringify(gathered.labBundle, null, 2),
        summaryPdf: new Uint8Array(summaryPdf),
        billFileIds: gathered.files.map((file) => file.id),
      },
    });
    await audit(deps, null, null, { action: "data.export.prepare", resource: "data-export", resourceId: exportId, patientId: userId });
  } catch (error) {
    await deps.prisma.dataExport.update({ where: { id: exportId }, data: { status: "failed" } });
    await audit(deps, null, null, {
      action: "data.export.prepare",
      resource: "data-export",
      resourceId: exportId,
      patientId: userId,
      outcome: "failed",
    });
    throw error;
  }
}

/** 'Descargar mis datos': one request per patient per hour (429 with the time of the next one), prepared in the background. */
export async function requestDataExport(deps: AppDeps, user: SessionUser, meta: RequestMeta, now = new Date()): Promise<DataExportState> {
  const patient = requirePatientUser(user);
  const latest = await latestOf(deps, patient.id);
  if (latest && now.getTime() - latest.createdAt.getTime() < EXPORT_MIN_INTERVAL_MINUTES * MINUTE) {
    const next = new Date(latest.createdAt.getTime() + EXPORT_MIN_INTERVAL_MINUTES * MINUTE);
    await audit(deps, user, meta, { action: "data.export.request", resource: "data-export", target: patient, outcome: "denied" });
    throw new AppError("TOO_MANY_REQUESTS", dataExportMessages.tooSoon(formatChileHourMinute(next)));
  }
  const row = await deps.prisma.dataExport.create({
    data: {
      id: randomBytes(18).toString("base64url"),
      userId: patient.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EXPORT_OFFERED_HOURS * 60 * MINUTE),
    },
    select: { id: true, status: true, createdAt: true, expiresAt: true },
  });
  await audit(deps, user, meta, { action: "data.export.request", resource: "data-export", resourceId: row.id, target: patient });
  deps.background.run("data export preparation failed", () => prepareExport(deps, row.id, patient.id));
  return { latest: await toDto(deps, patient, row, now) };
}

/**
 * GET /patient/data-export/download/{id}?token=: the ZIP as a stream, when the signed link is genuine, for this export,
 * made since the patient's last password change, and the export is ready and still offered. Every download is audited.
 */
export async function openDataExport(
  deps: AppDeps,
  rawId: unknown,
  query: unknown,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ fileName: string; stream: Readable }> {
  const id = ZExportId.safeParse(rawId);
  const signed = ZSignedLinkQuery.safeParse(query ?? {});
  const link = id.success && signed.success ? await verifyLink(deps.config, signed.data.token, ["data-export"], now) : null;
  if (!id.success || !link || link.ref !== id.data) throw new AppError("FORBIDDEN", dataExportMessages.linkInvalid);
  const user = await deps.prisma.user.findUnique({ where: { id: link.userId }, select: sessionUserSelect });
  if (!user || !(await linkStillOpens(deps, link, user))) throw new AppError("FORBIDDEN", dataExportMessages.linkInvalid);
  const row = await deps.prisma.dataExport.findFirst({ where: { id: id.data, userId: user.id } });
  if (!row || row.expiresAt <= now) throw new AppError("NOT_FOUND", dataExportMessages.expired);
  if (row.status !== "ready" || row.datosJson === null || row.labJson === null || row.summaryPdf === null)
    throw new AppError("CONFLICT", dataExportMessages.notReady);
  const datos = JSON.parse(row.datosJson) as { bills: Array<{ files: Array<{ zipPath: string }> }> };
  const paths = datos.bills.flatMap((bill) => bill.files.map((file) => file.zipPath));
  await audit(deps, user, meta, { action: "data.export.download", resource: "data-export", resourceId: row.id, target: user });
  return {
    fileName: `mis-datos-${chileToday(now)}.zip`,
    stream: exportZipStream(deps, {
      datosJson: row.datosJson,
      labJson: row.labJson,
      summaryPdf: row.summaryPdf,
      files: row.billFileIds.map((fileId, index) => ({ id: fileId, zipPath: paths[index] ?? `cuentas/${fileId}.pdf` })),
    }),
  };
}
