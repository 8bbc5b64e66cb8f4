import { randomUUID } from "node:crypto";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { firstLoginRefusal, sessionUserSelect } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { audit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { billMessages, ZFilePath } from "../../contract/bills.schemas.ts";
import { refuseReach } from "../../lib/access.ts";
import { billScopeWhere, findBill, requireBillsReader, requireBillsStaff, type BillsAction, type BillsActor } from "./bills-access.ts";
import { billFileDtoSelect, type BillFileDto } from "./bills.dto.ts";
import { issuingSession, linkSignInMethod, linkStillOpens, signLink, verifyLink, ZSignedLinkQuery } from "../../lib/signed-links.ts";
import type { UploadedPdf } from "./pdf-files.ts";
import { insertBillFiles, type NewBillFile } from "./bill-files.repository.ts";

// The PDFs of hospital bills (SPEC §7 'Bills and files'): upload, list, delete, and the short-lived download links.
// A file is reachable only through its bill, so every call first checks the bill (findBill, findFile).

/** How long a download link works (lib/signed-links.ts): long enough to click, short enough not to be kept. */
export const FILE_LINK_TTL_SECONDS = 300;

/** The files of a bill (names and sizes, never their bytes), in the order they were added. */
export function filesOfBill(deps: AppDeps, billId: number): Promise<BillFileDto[]> {
  return deps.prisma.billFile.findMany({ where: { billId }, select: billFileDtoSelect, orderBy: { id: "asc" } });
}

/** The rows of newly uploaded PDFs, each under a fresh random path. */
export const fileRows = (files: UploadedPdf[]): NewBillFile[] =>
  files.map((file) => ({ path: randomUUID(), fileName: file.fileName, content: file.content }));

/** POST /files/upload?accountId=: adds the PDFs to the bill, all or none. */
export async function addBillFiles(
  deps: AppDeps,
  user: SessionUser,
  id: unknown,
  files: UploadedPdf[],
  meta: RequestMeta,
): Promise<{ files: BillFileDto[]; message: string }> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.files.upload");
  const bill = await findBill(deps, actor, meta, "bill.files.upload", id);
  if (files.length === 0) throw new AppError("BAD_REQUEST", billMessages.noFiles);
  const rows = fileRows(files);
  await insertBillFiles(deps.sql, bill.id, rows);
  const stored = await deps.prisma.billFile.findMany({
    where: { path: { in: rows.map((row) => row.path) } },
    select: billFileDtoSelect,
    orderBy: { id: "asc" },
  });
  await audit(deps, user, meta, { action: "bill.files.upload", resourceId: bill.id, patientId: bill.userId, after: stored });
  return { files: stored, message: billMessages.uploaded };
}

/** GET /files/list/{accountId}: names and ids of the bill's files (never their bytes). */
export async function listBillFiles(deps: AppDeps, user: SessionUser, id: unknown, meta: RequestMeta): Promise<BillFileDto[]> {
  const actor = await requireBillsReader(deps, user, meta, "bill.files.list");
  const bill = await findBill(deps, actor, meta, "bill.files.list", id);
  const files = await filesOfBill(deps, bill.id);
  await audit(deps, user, meta, { action: "bill.files.list", resourceId: bill.id, patientId: bill.userId });
  return files;
}

/** The file if the actor may see its bill; otherwise the same 404 as a missing file (refuseReach: audited, counted). */
async function findFile(deps: AppDeps, actor: BillsActor, meta: RequestMeta, action: BillsAction, rawPath: unknown) {
  const path = parseInput(ZFilePath, rawPath);
  const file = await deps.prisma.billFile.findUnique({
    where: { path },
    select: { ...billFileDtoSelect, billId: true, bill: { select: { userId: true } } },
  });
  if (!file || !(await deps.prisma.bill.count({ where: { AND: [{ id: file.billId }, billScopeWhere(actor)] } }))) {
    await refuseReach(
      deps,
      actor.user,
      meta,
      file ? { action, resource: "bill-file", resourceId: path, patientId: file.bill.userId } : null,
    );
    throw new AppError("NOT_FOUND", billMessages.fileNotFound);
  }
  return file;
}

/** DELETE /files/path/{path}: removes one file of a bill. */
export async function deleteBillFile(deps: AppDeps, user: SessionUser, path: unknown, meta: RequestMeta): Promise<BillFileDto> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.file.delete");
  const file = await findFile(deps, actor, meta, "bill.file.delete", path);
  await deps.prisma.billFile.delete({ where: { id: file.id } });
  const dto = { id: file.id, fileName: file.fileName, path: file.path, size: file.size };
  await audit(deps, user, meta, {
    action: "bill.file.delete",
    resource: "bill-file",
    resourceId: file.path,
    patientId: file.bill.userId,
    before: { ...dto, billId: file.billId },
  });
  return dto;
}

/**
 * GET /files/{path}: a signed download link for the caller, valid FILE_LINK_TTL_SECONDS, relative to the API root
 * (`/api/rcr/v1/files/download/...`).
 */
export async function fileDownloadLink(
  deps: AppDeps,
  user: SessionUser,
  path: unknown,
  meta: RequestMeta,
  now: Date = new Date(),
): Promise<{ url: string; fileName: string; expiresAt: string }> {
  const actor = await requireBillsReader(deps, user, meta, "bill.file.link");
  const file = await findFile(deps, actor, meta, "bill.file.link", path);
  await audit(deps, user, meta, { action: "bill.file.link", resource: "bill-file", resourceId: file.path, patientId: file.bill.userId });
  const token = await signLink(
    deps.config,
    {
      userId: user.id,
      tokenVersion: user.tokenVersion,
      purpose: "bill-file",
      ref: file.path,
      sessionId: issuingSession(user),
      ...(actor.kind === "patient" ? { patientId: actor.patient.id } : {}),
    },
    FILE_LINK_TTL_SECONDS,
    now,
  );
  return {
    url: `/api/rcr/v1/files/download/${file.path}?${new URLSearchParams({ token })}`,
    fileName: file.fileName,
    expiresAt: new Date((Math.floor(now.getTime() / 1000) + FILE_LINK_TTL_SECONDS) * 1000).toISOString(),
  };
}

/**
 * GET /files/download/{path}?token=: the PDF bytes, when the link is genuine, unexpired, for this file, made since the
 * user's last password change, and its user may still see the bill (a privilege removed since the link was made stops it). Every download is audited.
 */
export async function downloadBillFile(
  deps: AppDeps,
  rawPath: unknown,
  query: unknown,
  meta: RequestMeta,
  now: Date = new Date(),
): Promise<{ fileName: string; content: Uint8Array }> {
  const path = ZFilePath.safeParse(rawPath);
  const signed = ZSignedLinkQuery.safeParse(query ?? {});
  const link = path.success && signed.success ? await verifyLink(deps.config, signed.data.token, ["bill-file"], now) : null;
  // A link for another file, or made before a password change, is as invalid as a forged one.
  if (!path.success || !link || link.ref !== path.data) throw new AppError("FORBIDDEN", billMessages.linkInvalid);
  const user = await deps.prisma.user.findUnique({ where: { id: link.userId }, select: sessionUserSelect });
  if (!user || !(await linkStillOpens(deps, link, user)) || firstLoginRefusal(user, await linkSignInMethod(deps, link)))
    throw new AppError("FORBIDDEN", billMessages.linkInvalid);
  // A caregiver's link names the dependent: the browser's download carries no X-Actuar-Por, so the link stands in for it.
  const onBehalf = { ...meta, actingFor: link.patientId === undefined ? undefined : String(link.patientId) };
  const actor = await requireBillsReader(deps, user, onBehalf, "bill.file.download");
  const file = await findFile(deps, actor, meta, "bill.file.download", path.data);
  const row = await deps.prisma.billFile.findUniqueOrThrow({ where: { id: file.id }, select: { content: true } });
  await audit(deps, user, meta, {
    action: "bill.file.download",
    resource: "bill-file",
    resourceId: file.path,
    patientId: file.bill.userId,
  });
  return { fileName: file.fileName, content: row.content };
}
