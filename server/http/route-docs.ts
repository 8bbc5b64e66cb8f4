import type { z } from "zod";

// What each REST route documents, declared beside its access (`access("staff", { summary, … })`) with the same zod
// schemas its service validates with. server/http/openapi.ts turns the route table into the OpenAPI document served
// at /api/docs; tests/api/api-docs.test.ts fails for a route of the contract without docs.

/** A file answered as bytes (a PDF, a CSV export) instead of JSON. */
export interface FileResponse {
  file: "application/pdf" | "text/csv" | "application/zip" | "text/calendar";
  description: string;
}

export const fileResponse = (file: FileResponse["file"], description: string): FileResponse => ({ file, description });

/** Error statuses a route may document beyond the ones its access and input imply (see openapi.ts). */
export type ExtraErrorStatus = 401 | 403 | 404 | 409 | 413 | 429 | 502 | 503 | 504;

export interface RouteDocs {
  /** One line in Spanish (SPEC §7's description of the call). */
  summary: string;
  description?: string;
  tag: string;
  /** Path parameters, one key per `:param` of the route's address. */
  params?: z.ZodObject;
  /** Query string (the `clinic` every call may carry is added to every route). */
  querystring?: z.ZodObject;
  /** JSON body. */
  body?: z.ZodType;
  /** multipart/form-data body: text fields and the names of file fields (PDFs, each repeatable; at least one when required). */
  multipart?: { fields?: z.ZodObject; files: string[]; filesRequired?: boolean };
  /** The 200 answer: a zod schema of the JSON, or a file. */
  response: z.ZodType | FileResponse;
  errors?: ExtraErrorStatus[];
}
