import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { firstIssueMessage } from "../contract/validation.ts";
import { AppError, forbiddenMessage, genericErrorMessage, unauthorizedMessage, type ErrorCode } from "../lib/errors.ts";
import type { Context } from "./context.ts";

const trpcCodes: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  BAD_GATEWAY: "BAD_GATEWAY",
  PROVIDER_UNAVAILABLE: "BAD_GATEWAY",
  PROVIDER_TIMEOUT: "GATEWAY_TIMEOUT",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

// What tRPC itself raises (a malformed request, an unknown procedure) comes in English: answer in Spanish.
const fallbackMessages: Partial<Record<TRPC_ERROR_CODE_KEY, string>> = {
  PARSE_ERROR: "Solicitud inválida",
  BAD_REQUEST: "Solicitud inválida",
  NOT_FOUND: "Recurso no encontrado",
  METHOD_NOT_SUPPORTED: "Método no permitido",
  UNAUTHORIZED: unauthorizedMessage,
  FORBIDDEN: forbiddenMessage,
  PAYLOAD_TOO_LARGE: "La solicitud supera el tamaño máximo permitido",
  UNSUPPORTED_MEDIA_TYPE: "Tipo de contenido no soportado",
};

/** AppErrors and zod errors keep their Spanish message; anything else gets a Spanish message for its code. */
function toTRPCError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (cause instanceof AppError) return new TRPCError({ code: trpcCodes[cause.code], message: cause.message, cause });
  if (cause instanceof ZodError) return new TRPCError({ code: "BAD_REQUEST", message: firstIssueMessage(cause), cause });
  return new TRPCError({ code: error.code, message: fallbackMessages[error.code] ?? genericErrorMessage, cause: error });
}

/** Who may call a procedure (the same levels as the REST routes' config.access), read by the security suite. */
export interface ProcedureMeta {
  access?: "public" | "user" | "patient" | "staff" | "admin";
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const mapped = toTRPCError(error);
      return { ...shape, message: mapped.message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// Errors thrown inside procedures are rethrown with their Spanish message and matching code.
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTRPCError(result.error);
  return result;
});

export const publicProcedure = t.procedure.use(mapErrors);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await ctx.getUser();
  if (!user) throw new AppError("UNAUTHORIZED", unauthorizedMessage);
  return next({ ctx: { ...ctx, user } });
});
