import type { AppDeps } from "../deps.ts";
import { Role, isStaffRole } from "../contract/roles.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";
import { userDtoSelect } from "../db/users.repository.ts";
import { sessionSignInMethod, sessionState, type CacheRead, type SignInMethod } from "../lib/sessions.ts";
import { sessionEndedElsewhereMessage } from "../contract/session.ts";
import {
  AppError,
  forbiddenMessage,
  passwordChangeRequiredMessage,
  secondFactorPendingMessage,
  secondFactorSetupRequiredMessage,
  termsRequiredMessage,
  unauthorizedMessage,
} from "../lib/errors.ts";

/** The signed-in user's row: what access checks need, and the account itself ('Mi cuenta', /auth/me) in one read. */
export const sessionUserSelect = { ...userDtoSelect, tokenVersion: true, totpEnabledAt: true } as const;

export interface SessionUser extends UserDtoSource {
  tokenVersion: number;
  /** When the person's second factor became active; null = none (staff must set one up, patients may). */
  totpEnabledAt: Date | null;
}

/** A user signed in by an access token, with the session the token belongs to. */
export interface AuthenticatedUser extends SessionUser {
  sessionId: string;
  /**
   * The session was opened by the password alone and the person has a second factor (issue 27): it reaches only the
   * second step and logout (requireUser / the tRPC procedures refuse it everywhere else with 401).
   */
  secondFactorPending: boolean;
  /** How the session was opened (issue 43): through ClaveÚnica, no temporary-password change is asked. */
  signInMethod: SignInMethod;
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

/**
 * The user behind an access token, or null when the token is missing, invalid or expired, predates a password change,
 * or belongs to a session that has ended ('Cerrar sesión').
 *
 * Read from the caches first. Another instance's commit reaches them a moment later (the change feed), and the
 * person's next request may get here first; so each cached answer that would stop the person and that they may have
 * just lifted there is read again from the database: a token newer than the cached row (a new password), a session
 * not yet open (a login, the second step's code), the first steps still due (the terms, a new password, the second
 * factor's setup). A cached "yes" stands: the feed voids it everywhere when it changes.
 */
export async function authenticate(deps: AppDeps, authorization: string | undefined): Promise<AuthenticatedUser | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  const claims = deps.tokens.verify(token);
  if (!claims) return null;
  let user = await sessionUser(deps, claims.userId, "cached");
  let userIsFresh = false;
  // Versions only go up: a token newer than the cached row was issued after a change this instance has not heard of.
  if (user && user.tokenVersion < claims.tokenVersion) {
    user = await sessionUser(deps, claims.userId, "fresh");
    userIsFresh = true;
  }
  if (!user || user.tokenVersion !== claims.tokenVersion) return null;
  let state = await sessionState(deps, user.id, claims.sessionId);
  if (state !== "open") state = await sessionState(deps, user.id, claims.sessionId, "fresh");
  if (!state) return null;
  const signInMethod = await sessionSignInMethod(deps, user.id, claims.sessionId);
  if (!userIsFresh && heldAtFirstSteps(user, signInMethod)) {
    user = await sessionUser(deps, claims.userId, "fresh");
    if (!user || user.tokenVersion !== claims.tokenVersion) return null;
  }
  return { ...user, sessionId: claims.sessionId, secondFactorPending: state === "pending", signInMethod };
}

function sessionUser(deps: AppDeps, userId: number, read: CacheRead): Promise<SessionUser | null> {
  const load = () => deps.prisma.user.findUnique({ where: { id: userId }, select: sessionUserSelect });
  return read === "fresh" ? deps.cache.users.getFresh(userId, load) : deps.cache.users.get(userId, load);
}

/** Whether the user is still held at a first step they may have just taken on another instance (see authenticate). */
function heldAtFirstSteps(user: SessionUser, signInMethod: SignInMethod): boolean {
  return isStaffRole(user.roleType) ? staffRefusal(user) !== null : firstLoginRefusal(user, signInMethod) !== null;
}

/**
 * What a refused bearer token is told: that its session was ended from another of the person's devices, when it was
 * (the screen says so instead of 'expiró'), else the general 401 message.
 */
export async function unauthenticatedMessage(deps: AppDeps, authorization: string | undefined): Promise<string> {
  const token = bearerToken(authorization);
  const claims = token ? deps.tokens.verify(token) : null;
  if (!claims) return unauthorizedMessage;
  const session = await deps.prisma.session.findUnique({ where: { id: claims.sessionId }, select: { userId: true, endReason: true } });
  return session?.userId === claims.userId && session.endReason === "ended-by-user" ? sessionEndedElsewhereMessage : unauthorizedMessage;
}

/** Why a signed-in session may not use a route, as 401: its second step is still due (unless the route is that step). */
export function secondFactorRefusal(user: Pick<AuthenticatedUser, "secondFactorPending">, duringSecondFactor = false): string | null {
  return user.secondFactorPending && !duringSecondFactor ? secondFactorPendingMessage : null;
}

/**
 * Why a patient may not use the portal yet, or null: until they have accepted the terms and replaced the temporary
 * password their account started with (SPEC §4 'First login'), a patient reaches only that journey (terms, password
 * change, 'Mi cuenta' data, logout). A session opened through ClaveÚnica (issue 43) is not asked for the password
 * change: the patient proved who they are to the State and never used the mailed password; the terms still come first,
 * and a later Rut-and-password login still asks for the change. Staff have their own rule (staffRefusal).
 */
export function firstLoginRefusal(
  user: Pick<SessionUser, "roleType" | "hasChangedPassword" | "dateTyc">,
  signInMethod: SignInMethod = "password",
): string | null {
  if (user.roleType !== Role.patient) return null;
  if (!user.dateTyc) return termsRequiredMessage;
  if (!user.hasChangedPassword && signInMethod !== "claveunica") return passwordChangeRequiredMessage;
  return null;
}

/**
 * The signed-in user, or 401. A password-only session of a person with a second factor gets 401 unless the route is
 * the second step (`duringSecondFactor`: verify-otp, logout). A patient who has not finished the first login gets 403
 * with what is missing, unless the route is part of that journey (`duringFirstLogin`).
 */
export async function requireUser(
  deps: AppDeps,
  authorization: string | undefined,
  options: { duringFirstLogin?: boolean; duringSecondFactor?: boolean } = {},
): Promise<AuthenticatedUser> {
  const user = await authenticate(deps, authorization);
  if (!user) throw new AppError("UNAUTHORIZED", await unauthenticatedMessage(deps, authorization));
  const pending = secondFactorRefusal(user, options.duringSecondFactor);
  if (pending) throw new AppError("UNAUTHORIZED", pending);
  const refusal = options.duringFirstLogin ? null : firstLoginRefusal(user, user.signInMethod);
  if (refusal) throw new AppError("FORBIDDEN", refusal);
  return user;
}

/**
 * Why the user may not use the staff endpoints, or null: only admins and executives who have replaced the temporary
 * password their account started with (it was sent by e-mail) and then set up their second factor (issue 27).
 */
export function staffRefusal(user: Pick<SessionUser, "roleType" | "hasChangedPassword" | "totpEnabledAt">): string | null {
  if (!isStaffRole(user.roleType)) return forbiddenMessage;
  if (!user.hasChangedPassword) return passwordChangeRequiredMessage;
  if (!user.totpEnabledAt) return secondFactorSetupRequiredMessage;
  return null;
}
