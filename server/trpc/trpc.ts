import { getTRPCErrorFromUnknown, initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { firstIssueMessage } from "../contract/validation.ts";
import { actingForPatient, denyNonStaff, deny, isAdmin, isPatient } from "../lib/access.ts";
import type { AuditAction } from "../lib/audit.ts";
import {
  AppError,
  forbiddenMessage,
  genericErrorMessage,
  serviceUnavailableMessage,
  unauthorizedMessage,
  type ErrorCode,
} from "../lib/errors.ts";
import { isDatabaseUnavailable } from "../db/db-errors.ts";
import { assertAcceptableInput } from "../http/input-guard.ts";
import { firstLoginRefusal, secondFactorRefusal, unauthenticatedMessage, type SessionUser } from "../http/authenticate.ts";
import type { RouteAccess } from "../http/route-access.ts";
import type { Context } from "./context.ts";
import type { CaregiverPart } from "../contract/caregivers.ts";

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
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
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
  if (isDatabaseUnavailable(cause)) return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: serviceUnavailableMessage, cause });
  return new TRPCError({ code: error.code, message: fallbackMessages[error.code] ?? genericErrorMessage, cause: error });
}

/** Every procedure declares who may call it (see server/http/route-access.ts); the base procedures set it. */
export interface ProcedureMeta {
  access: RouteAccess;
  /** Part of the patient's first-login journey (see access() in server/http/route-access.ts). */
  firstLogin?: boolean;
  /** Open to a password-only session awaiting its second factor (verify-otp, logout; see access()). */
  secondFactor?: boolean;
  /** Acts for a dependent named by X-Actuar-Por through a link covering this part (issue 30; see access()). */
  caregiverPart?: CaregiverPart;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // A streamed batch (trpc-accept: application/jsonl) is JSON lines, not one JSON document: say so (issue 42, point 5).
    jsonl: { contentType: "application/jsonl" },
    errorFormatter({ shape, error }) {
      const mapped = toTRPCError(error);
      return { ...shape, message: mapped.message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The base of every procedure, in one middleware level (tRPC copies its options object at each level, which showed in
 * profiles of the cheapest calls): the input guard REST also runs (NUL characters, nesting) on the raw input before any
 * schema sees it, then `run`, with every error rethrown with its Spanish message and matching code.
 * An input-less mutation arrives with an empty body, which tRPC cannot read as input: there is nothing to guard then
 * (a procedure that does take input fails on it in its own input parser, with the usual 400).
 */
async function guardedCall<R extends { ok: boolean }>(getRawInput: () => Promise<unknown>, run: () => Promise<R>): Promise<R> {
  let result: R;
  try {
    let input: unknown;
    let readable = true;
    try {
      input = await getRawInput();
    } catch {
      readable = false;
    }
    if (readable) assertAcceptableInput(input);
    result = await run();
  } catch (cause) {
    throw toTRPCError(getTRPCErrorFromUnknown(cause));
  }
  if (!result.ok) throw toTRPCError((result as unknown as { error: TRPCError }).error);
  return result;
}

export const publicProcedure = t.procedure
  .meta({ access: "public" })
  .use(({ getRawInput, next }) => guardedCall(getRawInput, () => next()));

/** What a kind of procedure checks of its signed-in caller, after the session checks and before the input is parsed. */
type CallerCheck = (ctx: Context, user: SessionUser) => Promise<void>;

/**
 * A signed-in user; a password-only session awaiting its second factor is refused (401) unless `duringSecondFactor`,
 * and a patient who has not finished the first login (403) unless `duringFirstLogin`. Then `check`, in the same
 * middleware level: each level costs tRPC two copies of its options (3–5 µs), and a patient's list went through three
 * (issue 26 measured tRPC's imaging list 55 µs of CPU per call behind REST's).
 */
const signedInProcedure = (meta: ProcedureMeta, duringFirstLogin: boolean, duringSecondFactor = false, check?: CallerCheck) =>
  t.procedure.meta({ ...meta, firstLogin: duringFirstLogin, secondFactor: duringSecondFactor }).use(({ ctx, getRawInput, next }) =>
    guardedCall(getRawInput, async () => {
      const user = await ctx.getUser();
      if (!user) throw new AppError("UNAUTHORIZED", await unauthenticatedMessage(ctx.deps, ctx.authorization));
      const pending = secondFactorRefusal(user, duringSecondFactor);
      if (pending) throw new AppError("UNAUTHORIZED", pending);
      const refusal = duringFirstLogin ? null : firstLoginRefusal(user, user.signInMethod);
      if (refusal) throw new AppError("FORBIDDEN", refusal);
      if (check) await check(ctx, user);
      return next({ ctx: { user } });
    }),
  );

export const authedProcedure = signedInProcedure({ access: "user" }, false);

/** The first-login journey of SPEC §4 (terms, password change, 'Mi cuenta' data, logout): open before it is finished. */
export const firstLoginProcedure = signedInProcedure({ access: "user" }, true);

/** The second step of a login (verify-otp) and logout: open to a password-only session too (issue 27). */
export const secondFactorProcedure = signedInProcedure({ access: "user" }, true, true);

const staffOnly =
  (action: AuditAction): CallerCheck =>
  (ctx, user) =>
    denyNonStaff(ctx.deps, user, ctx.meta, action);

/**
 * Staff only: admins and executives who have replaced their temporary password. Refusals are audited as denied under
 * `action`, and the check runs before the input is parsed, so a patient gets 403 whatever they send. Services check
 * again (REST calls them too) and read the executive's clinics with requireStaffActor.
 */
export const staffProcedure = (action: AuditAction) => signedInProcedure({ access: "staff" }, false, false, staffOnly(action));

/** Admins only (after the staff check); a refused executive is audited as denied and gets `message`. */
export const adminProcedure = (action: AuditAction, message: string = forbiddenMessage) =>
  signedInProcedure({ access: "admin" }, false, false, async (ctx, user) => {
    await staffOnly(action)(ctx, user);
    if (!isAdmin(user)) await deny(ctx.deps, user, ctx.meta, { action }, message);
  });

const patientOnly: CallerCheck = async (_ctx, user) => {
  if (!isPatient(user)) throw new AppError("FORBIDDEN", forbiddenMessage);
};

/** Patients only (roleType 2): their own bills, payments and results. Staff get 403. */
export const patientProcedure = signedInProcedure({ access: "patient" }, false, false, patientOnly);

/**
 * Procedures that may act for a dependent (issue 30): the X-Actuar-Por header names them, as on REST. A patient naming
 * someone they hold no live link covering `part` for is refused here (403, audited under `action`) before the input is
 * parsed, as REST refuses before reading parameters; the service then resolves the patient with the same rule.
 */
const refuseUnlinked =
  (part: CaregiverPart, action: AuditAction): CallerCheck =>
  async (ctx, user) => {
    if (isPatient(user) && ctx.meta.actingFor) await actingForPatient(ctx.deps, user, ctx.meta, part, action);
  };

/** A patient procedure acting for the caller or a dependent (see refuseUnlinked). */
export const actingPatientProcedure = (part: CaregiverPart, action: AuditAction) =>
  signedInProcedure({ access: "patient", caregiverPart: part }, false, false, async (ctx, user) => {
    await patientOnly(ctx, user);
    await refuseUnlinked(part, action)(ctx, user);
  });

/** A signed-in procedure (staff, or a patient acting for themself or a dependent: see refuseUnlinked). */
export const actingUserProcedure = (part: CaregiverPart, action: AuditAction) =>
  signedInProcedure({ access: "user", caregiverPart: part }, false, false, refuseUnlinked(part, action));
