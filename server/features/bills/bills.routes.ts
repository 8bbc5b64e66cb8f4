import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import "../../http/route-access.ts";
import { requireBillsStaff } from "./bills-access.ts";
import {
  addBillFiles,
  createBill,
  deleteBill,
  deleteBillFile,
  downloadBillFile,
  fileDownloadLink,
  listBillFiles,
  listPatientBills,
  listStaffBills,
  updateBill,
} from "./bills.service.ts";
import { attachmentDisposition, readMultipartPdfs } from "./pdf-files.ts";

type Params<K extends string> = FastifyRequest<{ Params: Record<K, string> }>;

/**
 * REST of SPEC §7 'Bills and files'. Uploads are read with this route's own limits (pdf-files.ts), enforced while
 * streaming: a file over 2 MB is cut off and answered 413 before anything is stored.
 */
export async function billsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const call = async (request: FastifyRequest) => ({
    user: await requireUser(deps, request.headers.authorization),
    meta: requestMeta(request),
  });

  // JSON (bill fields only) or multipart (bill fields, then PDFs in the field `file`): create with files in one call.
  app.post("/files/create-account", { config: { access: "staff" } }, async (request) => {
    const { user, meta } = await call(request);
    if (request.isMultipart()) {
      await requireBillsStaff(deps, user, meta, "bill.create"); // refuse before reading megabytes from a patient
      const { fields, files } = await readMultipartPdfs(request);
      return createBill(deps, user, fields, meta, files);
    }
    return createBill(deps, user, request.body, meta);
  });

  app.patch("/files/accountId/:id", { config: { access: "staff" } }, async (request: Params<"id">) => {
    const { user, meta } = await call(request);
    return { payload: await updateBill(deps, user, request.params.id, request.body, meta) };
  });

  app.post("/files/upload", { config: { access: "staff" } }, async (request) => {
    const { user, meta } = await call(request);
    const { accountId } = (request.query ?? {}) as { accountId?: unknown };
    await requireBillsStaff(deps, user, meta, "bill.files.upload");
    const { files } = await readMultipartPdfs(request);
    return addBillFiles(deps, user, accountId, files, meta);
  });

  app.get("/files/list/:accountId", { config: { access: "user" } }, async (request: Params<"accountId">) => {
    const { user, meta } = await call(request);
    return { getFileList: await listBillFiles(deps, user, request.params.accountId, meta) };
  });

  app.get("/files/accounts/:rut", { config: { access: "user" } }, async (request: Params<"rut">) => {
    const { user, meta } = await call(request);
    return listPatientBills(deps, user, { ...(request.query as object), rut: request.params.rut }, meta);
  });

  app.get("/files/filter/users", { config: { access: "staff" } }, async (request) => {
    const { user, meta } = await call(request);
    return listStaffBills(deps, user, request.query, meta);
  });

  // The signed link is the credential (it names the user it was made for); no bearer header is needed to follow it.
  app.get("/files/download/:path", { config: { access: "signed" } }, async (request: Params<"path">, reply) => {
    const file = await downloadBillFile(deps, request.params.path, request.query, requestMeta(request));
    return reply
      .header("Content-Type", "application/pdf")
      .header("Content-Disposition", attachmentDisposition(file.fileName))
      .header("X-Content-Type-Options", "nosniff")
      .header("Cache-Control", "no-store")
      .send(Buffer.from(file.content));
  });

  app.get("/files/:path", { config: { access: "user" } }, async (request: Params<"path">) => {
    const { user, meta } = await call(request);
    return fileDownloadLink(deps, user, request.params.path, meta);
  });

  app.delete("/files/path/:path", { config: { access: "staff" } }, async (request: Params<"path">) => {
    const { user, meta } = await call(request);
    return { payload: await deleteBillFile(deps, user, request.params.path, meta) };
  });

  app.delete("/files/account/:accountId", { config: { access: "staff" } }, async (request: Params<"accountId">) => {
    const { user, meta } = await call(request);
    return { payload: await deleteBill(deps, user, request.params.accountId, meta) };
  });
}
