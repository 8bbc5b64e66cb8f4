import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import "../../http/route-access.ts";
import { requireBillsStaff } from "./bills-access.ts";
import { createBill, deleteBill, listPatientBills, listStaffBills, updateBill } from "./bills.service.ts";
import { addBillFiles, deleteBillFile, downloadBillFile, fileDownloadLink, listBillFiles } from "./bills-files.service.ts";
import { attachmentDisposition, readMultipartPdfs } from "./pdf-files.ts";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZBillDto, ZBillFileDto, ZCreatedBill, ZFileLink, ZPatientBillsPage, ZStaffBillsPage } from "../../contract/bills.dto.ts";
import {
  ZBillId,
  ZCreateBillInput,
  ZFilePath,
  ZPatientBillsInput,
  ZStaffBillsInput,
  ZUpdateBillInput,
} from "../../contract/bills.schemas.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";
import { ZSignedLinkQuery } from "../../lib/signed-links.ts";

const tag = "Cuentas hospitalarias";
const byPath = z.object({ path: ZFilePath });
const byAccountId = z.object({ accountId: ZBillId });
/** The API document's entry of each route (served at /api/docs), with the schemas the services validate with. */
const docs = {
  create: {
    tag,
    summary: "Crea una cuenta hospitalaria, con sus PDF si se envían en la misma llamada",
    description:
      "JSON con los datos de la cuenta, o multipart/form-data con esos campos y luego los PDF (máximo 2 MB cada uno) en el campo file.",
    body: ZCreateBillInput,
    multipart: { fields: ZCreateBillInput, files: ["file"] },
    response: ZCreatedBill,
    errors: [409, 413],
  },
  update: {
    tag,
    summary: "Actualiza una cuenta (sin cambiar su accountCode)",
    params: z.object({ id: ZBillId }),
    body: ZUpdateBillInput,
    response: payloadOf(ZBillDto),
  },
  upload: {
    tag,
    summary: "Adjunta PDF a una cuenta (campo file, máximo 2 MB cada uno)",
    querystring: byAccountId,
    multipart: { files: ["file"], filesRequired: true },
    response: z.object({ files: z.array(ZBillFileDto), message: z.string() }),
    errors: [404, 413],
  },
  list: { tag, summary: "Archivos de una cuenta", params: byAccountId, response: z.object({ getFileList: z.array(ZBillFileDto) }) },
  patientBills: {
    tag,
    summary: "Cuentas de un paciente (paginado, ordenable)",
    params: ZPatientBillsInput.pick({ rut: true }),
    querystring: ZPatientBillsInput.omit({ rut: true }),
    response: ZPatientBillsPage,
  },
  staffBills: {
    tag,
    summary: "Busca cuentas hospitalarias (paginado, ordenable)",
    querystring: ZStaffBillsInput,
    response: ZStaffBillsPage,
  },
  download: {
    tag,
    summary: "Descarga un PDF por su enlace firmado",
    params: byPath,
    querystring: ZSignedLinkQuery,
    response: fileResponse("application/pdf", "El PDF adjunto"),
  },
  link: { tag, summary: "Enlace firmado de corta duración para descargar un PDF", params: byPath, response: ZFileLink },
  deleteFile: { tag, summary: "Elimina un archivo de una cuenta", params: byPath, response: payloadOf(ZBillFileDto) },
  deleteBill: {
    tag,
    summary: "Elimina una cuenta y sus archivos (no una con pagos registrados)",
    params: byAccountId,
    response: payloadOf(z.object({ accountId: z.number().int() })),
    errors: [409],
  },
} satisfies Record<string, RouteDocs>;

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
  app.post("/files/create-account", { config: { access: "staff", docs: docs.create } }, async (request) => {
    const { user, meta } = await call(request);
    if (request.isMultipart()) {
      await requireBillsStaff(deps, user, meta, "bill.create"); // refuse before reading megabytes from a patient
      const { fields, files } = await readMultipartPdfs(request);
      return createBill(deps, user, fields, meta, files);
    }
    return createBill(deps, user, request.body, meta);
  });

  app.patch("/files/accountId/:id", { config: { access: "staff", docs: docs.update } }, async (request: Params<"id">) => {
    const { user, meta } = await call(request);
    return { payload: await updateBill(deps, user, request.params.id, request.body, meta) };
  });

  app.post("/files/upload", { config: { access: "staff", docs: docs.upload } }, async (request) => {
    const { user, meta } = await call(request);
    const { accountId } = (request.query ?? {}) as { accountId?: unknown };
    await requireBillsStaff(deps, user, meta, "bill.files.upload");
    const { files } = await readMultipartPdfs(request);
    return addBillFiles(deps, user, accountId, files, meta);
  });

  app.get(
    "/files/list/:accountId",
    { config: { access: "user", docs: docs.list, caregiverPart: "cuentas-pagos" } },
    async (request: Params<"accountId">) => {
      const { user, meta } = await call(request);
      return { getFileList: await listBillFiles(deps, user, request.params.accountId, meta) };
    },
  );

  app.get(
    "/files/accounts/:rut",
    { config: { access: "user", docs: docs.patientBills, caregiverPart: "cuentas-pagos" } },
    async (request: Params<"rut">) => {
      const { user, meta } = await call(request);
      return listPatientBills(deps, user, { ...(request.query as object), rut: request.params.rut }, meta);
    },
  );

  app.get("/files/filter/users", { config: { access: "staff", docs: docs.staffBills } }, async (request) => {
    const { user, meta } = await call(request);
    return listStaffBills(deps, user, request.query, meta);
  });

  // The signed link is the credential (it names the user it was made for); no bearer header is needed to follow it.
  app.get("/files/download/:path", { config: { access: "signed", docs: docs.download } }, async (request: Params<"path">, reply) => {
    const file = await downloadBillFile(deps, request.params.path, request.query, requestMeta(request));
    return reply
      .header("Content-Type", "application/pdf")
      .header("Content-Disposition", attachmentDisposition(file.fileName))
      .header("X-Content-Type-Options", "nosniff")
      .header("Cache-Control", "no-store")
      .send(Buffer.from(file.content));
  });

  app.get(
    "/files/:path",
    { config: { access: "user", docs: docs.link, caregiverPart: "cuentas-pagos" } },
    async (request: Params<"path">) => {
      const { user, meta } = await call(request);
      return fileDownloadLink(deps, user, request.params.path, meta);
    },
  );

  app.delete("/files/path/:path", { config: { access: "staff", docs: docs.deleteFile } }, async (request: Params<"path">) => {
    const { user, meta } = await call(request);
    return { payload: await deleteBillFile(deps, user, request.params.path, meta) };
  });

  app.delete("/files/account/:accountId", { config: { access: "staff", docs: docs.deleteBill } }, async (request: Params<"accountId">) => {
    const { user, meta } = await call(request);
    return { payload: await deleteBill(deps, user, request.params.accountId, meta) };
  });
}
