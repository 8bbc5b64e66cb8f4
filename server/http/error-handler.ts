import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { firstIssueMessage } from "../contract/validation.ts";
import { isDatabaseUnavailable } from "../db/db-errors.ts";
import { AppError, genericErrorMessage, serviceUnavailableMessage, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../lib/errors.ts";

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "El cuerpo de la solicitud no es un JSON válido",
  FST_ERR_CTP_EMPTY_JSON_BODY: "El cuerpo de la solicitud está vacío",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Tipo de contenido no soportado",
  FST_ERR_CTP_BODY_TOO_LARGE: "La solicitud supera el tamaño máximo permitido",
  FST_REQ_FILE_TOO_LARGE: "El archivo supera el tamaño máximo permitido de 2MB",
};

/** Maps any thrown error to a status and a Spanish message; 5xx never reveal internals. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return { statusCode: error.status, error: error.code, message: error.message };
  if (error instanceof ZodError) return { statusCode: 400, error: "BAD_REQUEST", message: firstIssueMessage(error) };
  if (isDatabaseUnavailable(error)) return { statusCode: 503, error: "UNAVAILABLE", message: serviceUnavailableMessage };
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = (fastifyError.code && fastifyClientErrors[fastifyError.code]) ?? "Solicitud inválida";
    return { statusCode: status, error: fastifyError.code ?? "BAD_REQUEST", message };
  }
  return { statusCode: 500, error: "INTERNAL", message: genericErrorMessage };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toErrorBody(error);
    if (body.statusCode === 503) {
      request.log.warn({ err: error }, "database unavailable");
      reply.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    } else if (body.statusCode >= 500) request.log.error({ err: error }, "unexpected error");
    void reply.status(body.statusCode).send(body);
  });
}
