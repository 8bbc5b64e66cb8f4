import type { AppDeps } from "../deps.ts";
import { Role, isStaffRole } from "../contract/roles.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";
import { userDtoSelect } from "../db/users.repository.ts";
import { isSessionOpen } from "../lib/sessions.ts";
import { AppError, forbiddenMessage, passwordChangeRequiredMessage, termsRequiredMessage, unauthorizedMessage } from "../lib/errors.ts";

/** The signed-in user's row: what access checks need, and the account itself ('Mi cuenta', /auth/me) in one read. */
export const sessionUserSelect = { ...userDtoSelect, tokenVersion: true } as const;

export interface SessionUser extends UserDtoSource {
  tokenVersion: number;
}

/** A user signed in by an access token, with the session the token belongs to. */
export interface AuthenticatedUser extends SessionUser {
  sessionId: string;
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

/**
 * The user behind an access token, or null when the token is missing, invalid or expired, predates a password change,
 * or belongs to a session that has ended ('Cerrar sesión').
 */
export async function authenticate(deps: AppDeps, authorization: string | undefined): Promise<AuthenticatedUser | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  const claims = deps.tokens.verify(token);
  if (!claims) return null;
  const user = await deps.cache.users.get(claims.userId, () =>
    deps.prisma.user.findUnique({ where: { id: claims.userId }, select: sessionUserSelect }),
  );
  if (!user || user.tokenVersion !== claims.tokenVersion) return null;
  if (!(await isSessionOpen(deps, user.id, claims.sessionId))) return null;
  return { ...user, sessionId: claims.sessionId };
}

/**
 * Why a patient may not use the portal yet, or null: until they have accepted the terms and replaced the temporary
 * password their account started with (SPEC §4 'First login'), a patient reaches only that journey (terms, password
 * change, 'Mi cuenta' data, logout). Staff have their own rule (staffRefusal).
 */
export function firstLoginRefusal(user: Pick<SessionUser, "roleType" | "hasChangedPassword" | "dateTyc">): string | null {
  if (user.roleType !== Role.patient) return null;
  if (!user.dateTyc) return termsRequiredMessage;
  if (!user.hasChangedPassword) return passwordChangeRequiredMessage;
  return null;
}

/**
 * The signed-in user, or 401. A patient who has not finished the first login gets 403 with what is missing, unless
 * the route is part of that journey (`duringFirstLogin`).
 */
export async function requireUser(
  deps: AppDeps,
  authorization: string | undefined,
  options: { duringFirstLogin?: boolean } = {},
): Promise<AuthenticatedUser> {
  const user = await authenticate(deps, authorization);
  if (!user) throw new AppError("UNAUTHORIZED", unauthorizedMessage);
  const refusal = options.duringFirstLogin ? null : firstLoginRefusal(user);
  if (refusal) throw new AppError("FORBIDDEN", refusal);
  return user;
}

/**
 * Why the user may not use the staff endpoints, or null: only admins and executives who have replaced the temporary
 * password their account started with (it was sent by e-mail).
 */
export function staffRefusal(user: Pick<SessionUser, "roleType" | "hasChangedPassword">): string | null {
  if (!isStaffRole(user.roleType)) return forbiddenMessage;
  if (!user.hasChangedPassword) return passwordChangeRequiredMessage;
  return null;
}
