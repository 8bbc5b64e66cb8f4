import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role, isStaffRole } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { loginSchema } from "../../contract/validation.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError, closedAccountMessage, loginFailedMessage } from "../../lib/errors.ts";
import { decoyPasswordHash, verifyPassword } from "../../lib/passwords.ts";
import { issueAccessToken } from "../../lib/session-tokens.ts";
import { endSession, startSession } from "../../lib/sessions.ts";
import { parseInput } from "../../http/validate.ts";
import { authenticate, unauthenticatedMessage, type AuthenticatedUser } from "../../http/authenticate.ts";
import { toUserDto, type UserDto } from "../../contract/users.dto.ts";
import type { SecondFactorStep } from "../../contract/second-factor.ts";
import { userDtoSelect } from "../../db/users.repository.ts";
import { noticeNewDevice } from "./second-factor.service.ts";
import { deviceCookieFor, throttledGuess, type DeviceCookie } from "../../lib/login-throttle.ts";

export type LoginPortal = "patient" | "staff";

export interface LoginResult {
  user: UserDto;
  accessToken: string;
  /**
   * Beside the spec's answer (issue 27): "verify" when the token reaches only the second step (POST /auth/verify-otp),
   * "setup" when a staff member must set up the second factor before using the staff pages; absent otherwise.
   */
  secondFactor?: SecondFactorStep;
}

/**
 * A login's answer, and the device cookie the transport sets so this browser is recognised next time: only once the
 * login is complete (a login awaiting its second step gets it from verify-otp).
 */
export interface LoginOutcomeWithDevice {
  session: LoginResult;
  deviceCookie?: DeviceCookie;
}

export const ZLoginInput = loginSchema;

/**
 * Logs a user in through the patient portal (role 2 only) or the staff portal (roles 0 and 1).
 * Every failure — unknown RUT, wrong password, wrong portal — answers the same 401, in similar time.
 * Throws TOO_MANY_REQUESTS once the RUT or the address has used up its failures.
 */
export async function login(deps: AppDeps, input: unknown, portal: LoginPortal, meta: RequestMeta): Promise<LoginOutcomeWithDevice> {
  const { rut, password } = parseInput(ZLoginInput, input);
  const normalizedRut = normalizeRut(rut);
  const user = await deps.prisma.user.findUnique({
    where: { rut: normalizedRut },
    select: { ...userDtoSelect, passwordHash: true, tokenVersion: true, totpEnabledAt: true, closedAt: true },
  });
  const right = await throttledGuess(deps, normalizedRut, "password", meta, async () => {
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    const portalMatches = user ? (portal === "staff" ? isStaffRole(user.roleType) : user.roleType === Role.patient) : false;
    return passwordMatches && portalMatches;
  }).catch((error: unknown) => {
    deps.metrics?.loginOutcome("throttled", portal);
    throw error;
  });

  if (!user || !right) {
    await recordAudit(deps.prisma, { actorId: user?.id, action: `login.${portal}`, resource: "session", outcome: "denied", ip: meta.ip });
    deps.metrics?.loginOutcome("bad_credentials", portal);
    throw new AppError("UNAUTHORIZED", loginFailedMessage);
  }
  // Told only to whoever knows the password: the account was closed at the patient's request (issue 28).
  if (user.closedAt) {
    await recordAudit(deps.prisma, {
      actorId: user.id,
      actorRole: user.roleType,
      action: `login.${portal}`,
      resource: "session",
      outcome: "denied",
      ip: meta.ip,
    });
    throw new AppError("FORBIDDEN", closedAccountMessage);
  }
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: `login.${portal}`,
    resource: "session",
    ip: meta.ip,
  });
  deps.metrics?.loginOutcome("ok", portal);
  // A person with a second factor gets a session that reaches only the second step (verify-otp) until a code is given.
  const pending = user.totpEnabledAt !== null;
  const sessionId = await startSession(deps, user.id, meta, { secondFactorPending: pending });
  const secondFactor: SecondFactorStep | undefined = pending ? "verify" : isStaffRole(user.roleType) ? "setup" : undefined;
  if (!pending) await noticeNewDevice(deps, { ...user, sessionId }, meta);
  return {
    session: { user: toUserDto(user), accessToken: issueAccessToken(deps, user, sessionId), ...(secondFactor ? { secondFactor } : {}) },
    ...(pending ? {} : { deviceCookie: deviceCookieFor(deps, normalizedRut) }),
  };
}

/**
 * True when the bearer token is valid and issued after the user's last password change, and its session is not a
 * password-only one still awaiting the second factor.
 */
export async function validateToken(deps: AppDeps, authorization: string | undefined): Promise<boolean> {
  const user = await authenticate(deps, authorization);
  return user !== null && !user.secondFactorPending;
}

/** What a refused token is told: its session ended from another of the person's devices, or the general 401 message. */
export function sessionRefusal(deps: AppDeps, authorization: string | undefined): Promise<string> {
  return unauthenticatedMessage(deps, authorization);
}

/**
 * 'Cerrar sesión': ends the session of the token (every instance refuses it from the next request) and audits it.
 * Answers true also for a session that had ended already, so a second click or a second tab does no harm.
 */
export async function logout(deps: AppDeps, user: AuthenticatedUser, meta: RequestMeta): Promise<true> {
  const ended = await endSession(deps, user.id, user.sessionId, "logout");
  if (ended)
    await recordAudit(deps.prisma, { actorId: user.id, actorRole: user.roleType, action: "logout", resource: "session", ip: meta.ip });
  return true;
}
