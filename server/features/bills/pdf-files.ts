import type { FastifyRequest } from "fastify";
import { messages } from "../../contract/validation.ts";
import { AppError } from "../../lib/errors.ts";
import { billMessages, MAX_FILES_PER_REQUEST } from "../../contract/bills.schemas.ts";
import { MAX_PDF_BYTES } from "../../contract/validation.ts";

// Reading uploaded PDFs from a multipart request (@fastify/multipart, limits set where the routes register it) and
// naming them safely for display and download.

export interface UploadedPdf {
  /** Display name only: storage uses a generated path id. */
  fileName: string;
  content: Buffer;
}

const PDF_MAGIC = Buffer.from("%PDF-", "latin1");
const MAX_NAME_LENGTH = 150;

export const isPdfContent = (content: Buffer) => content.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);

/**
 * The uploaded name made harmless for display: the last path segment only, no control characters (NUL included),
 * no leading dots, at most 150 characters (keeping the extension). Never used as a storage key.
 */
export function displayFileName(raw: string | undefined): string {
  const cleaned = (raw ?? "")
    .normalize("NFC")
    // Control characters (NUL included) have no place in a name shown on screen or sent in a header.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .split(/[\\/]/)
    .pop()!
    .replace(/^[.\s]+/, "")
    .trim();
  const chars = Array.from(cleaned);
  if (chars.length <= MAX_NAME_LENGTH) return cleaned || "documento.pdf";
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? "";
  return chars.slice(0, MAX_NAME_LENGTH - extension.length).join("") + extension;
}

/** RFC 6266 attachment header: an ASCII fallback `filename` and the exact name as RFC 8187 `filename*`. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Every part of a multipart request: text fields by name, and the PDFs of the `file` field(s). Throws 413 with the
 * form's message when a file passes 2 MB (the stream is cut there, nothing is kept), 400 for a file that is not a PDF
 * by declared type or by content, for another file field or for too many files. Nothing is stored here: callers write
 * the whole request in one transaction after this returns.
 */
/** Per-request limits of the bill upload routes (multipart itself is registered app-wide in http/uploads.ts). */
const billUploadLimits = {
  fileSize: MAX_PDF_BYTES,
  files: MAX_FILES_PER_REQUEST + 1,
  fields: 20,
  fieldSize: 1_000,
  parts: 40,
  headerPairs: 50,
};

export async function readMultipartPdfs(request: FastifyRequest): Promise<{ fields: Record<string, string>; files: UploadedPdf[] }> {
  if (!request.isMultipart()) throw new AppError("BAD_REQUEST", billMessages.notMultipart);
  const fields: Record<string, string> = {};
  const files: UploadedPdf[] = [];
  let current = "";
  try {
    for await (const part of request.parts({ limits: billUploadLimits })) {
      if (part.type === "field") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      current = displayFileName(part.filename);
      const content = await part.toBuffer();
      if (part.fieldname !== "file") throw new AppError("BAD_REQUEST", billMessages.notMultipart);
      if (part.mimetype !== "application/pdf" || !isPdfContent(content)) throw new AppError("BAD_REQUEST", messages.pdfOnly);
      files.push({ fileName: current, content });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("PAYLOAD_TOO_LARGE", messages.pdfTooLarge(current));
    if (code === "FST_FILES_LIMIT") throw new AppError("PAYLOAD_TOO_LARGE", billMessages.tooManyFiles);
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") throw new AppError("BAD_REQUEST", billMessages.invalidBody);
    if (error instanceof AppError) throw error;
    // Anything else here is the client's body failing to parse (busboy: "Unexpected end of form", bad part headers).
    throw new AppError("BAD_REQUEST", billMessages.notMultipart, { cause: error });
  }
  if (files.length > MAX_FILES_PER_REQUEST) throw new AppError("PAYLOAD_TOO_LARGE", billMessages.tooManyFiles);
  return { fields, files };
}
