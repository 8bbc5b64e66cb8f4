import type { AppDeps } from "../deps.ts";
import { isStaffRole } from "../contract/roles.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";
import { userDtoSelect } from "../db/users.repository.ts";
import { AppError, forbiddenMessage, passwordChangeRequiredMessage, unauthorizedMessage } from "../lib/errors.ts";

/** The signed-in user's row: what access checks need, and the account itself ('Mi cuenta', /auth/me) in one read. */
export const sessionUserSelect = { ...userDtoSelect, tokenVersion: true } as const;

export interface SessionUser extends UserDtoSource {
  tokenVersion: number;
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

/** The user behind an access token, or null when the token is missing, invalid, expired or predates a password change. */
export async function authenticate(deps: AppDeps, authorization: string | undefined): Promise<SessionUser | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  const claims = deps.tokens.verify(token);
  if (!claims) return null;
  const user = await deps.cache.users.get(claims.userId, () =>
    deps.prisma.user.findUnique({ where: { id: claims.userId }, select: sessionUserSelect }),
  );
  if (!user || user.tokenVersion !== claims.tokenVersion) return null;
  return user;
}

export async function requireUser(deps: AppDeps, authorization: string | undefined): Promise<SessionUser> {
  const user = await authenticate(deps, authorization);
  if (!user) throw new AppError("UNAUTHORIZED", unauthorizedMessage);
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
