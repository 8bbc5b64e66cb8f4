import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role, isStaffRole } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import { loginSchema } from "../../contract/validation.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError, loginFailedMessage } from "../../lib/errors.ts";
import { decoyPasswordHash, verifyPassword } from "../../lib/passwords.ts";
import { issueAccessToken } from "../../lib/session-tokens.ts";
import { parseInput } from "../../http/validate.ts";
import { authenticate } from "../../http/authenticate.ts";
import { toUserDto, type UserDto } from "../../contract/users.dto.ts";
import { userDtoSelect } from "../../db/users.repository.ts";
import { passwordAttemptSucceeded, reservePasswordAttempt } from "../../lib/login-throttle.ts";

export type LoginPortal = "patient" | "staff";

export interface LoginResult {
  user: UserDto;
  accessToken: string;
}

export const ZLoginInput = loginSchema;

/**
 * Logs a user in through the patient portal (role 2 only) or the staff portal (roles 0 and 1).
 * Every failure — unknown RUT, wrong password, wrong portal — answers the same 401, in similar time.
 * Throws TOO_MANY_REQUESTS once the RUT or the address has used up its failures.
 */
export async function login(deps: AppDeps, input: unknown, portal: LoginPortal, meta: RequestMeta): Promise<LoginResult> {
  const { rut, password } = parseInput(ZLoginInput, input);
  const normalizedRut = normalizeRut(rut);
  await reservePasswordAttempt(deps, normalizedRut, meta.ip).catch((error: unknown) => {
    deps.metrics?.loginOutcome("throttled", portal);
    throw error;
  });

  const user = await deps.prisma.user.findUnique({
    where: { rut: normalizedRut },
    select: { ...userDtoSelect, passwordHash: true, tokenVersion: true },
  });
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
  const portalMatches = user ? (portal === "staff" ? isStaffRole(user.roleType) : user.roleType === Role.patient) : false;

  if (!user || !passwordMatches || !portalMatches) {
    await recordAudit(deps.prisma, { actorId: user?.id, action: `login.${portal}`, resource: "session", outcome: "denied", ip: meta.ip });
    deps.metrics?.loginOutcome("bad_credentials", portal);
    throw new AppError("UNAUTHORIZED", loginFailedMessage);
  }
  await passwordAttemptSucceeded(deps, normalizedRut, meta.ip);
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: `login.${portal}`,
    resource: "session",
    ip: meta.ip,
  });
  deps.metrics?.loginOutcome("ok", portal);
  return { user: toUserDto(user), accessToken: issueAccessToken(deps, user) };
}

/** True when the bearer token is valid and issued after the user's last password change. */
export async function validateToken(deps: AppDeps, authorization: string | undefined): Promise<boolean> {
  return (await authenticate(deps, authorization)) !== null;
}
