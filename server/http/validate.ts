import { z } from "zod";
import { firstIssueMessage } from "../contract/validation.ts";
import { AppError } from "../lib/errors.ts";

/** Validates outside input at the boundary: a failure is a 400 with the rule's Spanish message. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  if (schema instanceof z.ZodObject && data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data))) {
    throw new AppError("BAD_REQUEST", "El cuerpo de la solicitud debe ser un objeto JSON");
  }
  const result = schema.safeParse(data ?? {});
  if (!result.success) throw new AppError("BAD_REQUEST", firstIssueMessage(result.error));
  return result.data;
}
