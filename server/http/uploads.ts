import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../lib/errors.ts";

// Request size limits. JSON bodies of the contract are small forms, so the app-wide body limit is small; an upload
// route reads its multipart body with readSingleFile and its own file-size limit (per route, not global).

/** The app-wide body limit (Fastify bodyLimit): every JSON or text body (the largest, privileges-array with 50 clinics, is under 5 KB). */
export const JSON_BODY_LIMIT = 16 * 1024;
/** The file-size limit of an upload route that does not set its own (SPEC: bill PDFs up to 2 MB). */
export const DEFAULT_UPLOAD_LIMIT = 2 * 1024 * 1024;

export const uploadMessages = {
  notMultipart: "Se esperaba un archivo (multipart/form-data)",
  noFile: "No se recibió ningún archivo",
  tooLarge: (bytes: number) => `El archivo supera el tamaño máximo permitido de ${formatMegabytes(bytes)}`,
} as const;

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb}MB` : `${Math.round(bytes / 1024)}KB`;
}

/** Registers @fastify/multipart with tight defaults (one file, a few short fields); routes narrow the file size. */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: DEFAULT_UPLOAD_LIMIT, files: 1, fields: 10, fieldSize: 1024, parts: 11, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
}

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
  /** The form's text fields sent before the file. */
  fields: Record<string, string>;
}

/**
 * Reads the one file of a multipart request, refusing more than `maxFileBytes` with 413 PAYLOAD_TOO_LARGE and a Spanish
 * message that names the limit. Throws BAD_REQUEST when the request is not multipart or carries no file.
 */
export async function readSingleFile(request: FastifyRequest, { maxFileBytes = DEFAULT_UPLOAD_LIMIT } = {}): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new AppError("BAD_REQUEST", uploadMessages.notMultipart);
  try {
    const file = await request.file({ limits: { fileSize: maxFileBytes, files: 1 }, throwFileSizeLimit: true });
    if (!file) throw new AppError("BAD_REQUEST", uploadMessages.noFile);
    const data = await file.toBuffer();
    const fields: Record<string, string> = {};
    for (const [name, field] of Object.entries(file.fields)) {
      const value = Array.isArray(field) ? field[0] : field;
      if (value && value.type === "field" && typeof value.value === "string") fields[name] = value.value;
    }
    return { filename: file.filename, mimetype: file.mimetype, data, fields };
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("PAYLOAD_TOO_LARGE", uploadMessages.tooLarge(maxFileBytes), { cause: error });
    if (error instanceof AppError) throw error;
    // Anything else is the client's body failing to parse (busboy: "Unexpected end of form", bad part headers).
    throw new AppError("BAD_REQUEST", uploadMessages.notMultipart, { cause: error });
  }
}
