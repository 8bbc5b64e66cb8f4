import { randomBytes } from "node:crypto";
import type { AppDeps, RequestMeta } from "../deps.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { announceRowChange } from "../db/row-changes.ts";

// Server-side sessions (issue 23, finding 3; the sessions of the second-factor issue build on them): one row per login,
// its id carried by every access token as `sid`. A token is accepted only while its session has not ended, checked on
// every request against the user's open sessions, which each instance caches only while it hears the database's change
// feed ("Session:<userId>" on every session made or ended), so an ended session is refused by every instance at once.

export type SessionEndReason = "logout" | "password" | "ended-by-user" | "second-factor-reset" | "deactivated";

/**
 * A session open for the full portal, or one opened by the password alone of a person with a second factor
 * ("pending", issue 27): it reaches nothing but the second step (verify-otp) and logout, until a code completes it.
 */
export type SessionState = "open" | "pending";

/**
 * How a session was opened (issue 43): by the Rut and password, or through ClaveÚnica, the State's identity. A patient
 * who came through ClaveÚnica is not asked to replace a temporary password they did not use (firstLoginRefusal).
 */
export type SignInMethod = "password" | "claveunica";

/** How long a password-only session waits for its code. */
export const PENDING_SESSION_MINUTES = 10;

/** How often a session's lastSeenAt is written while it is used: often enough to list sessions, rarely enough to be free. */
const LAST_SEEN_WRITE_MS = 5 * 60_000;
const USER_AGENT_MAX = 256;

type SessionWriter = Pick<PrismaClient, "session">;

/** Opens a session for a login and returns its id (the access token's `sid`). */
export async function startSession(
  deps: AppDeps,
  userId: number,
  meta: RequestMeta,
  options: { secondFactorPending?: boolean; signInMethod?: SignInMethod } = {},
): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  const pending = options.secondFactorPending ?? false;
  // One clock for the start and the end (the database's default for createdAt could differ by a millisecond).
  const now = Date.now();
  await deps.prisma.session.create({
    data: {
      id,
      userId,
      secondFactorPending: pending,
      signInMethod: options.signInMethod ?? "password",
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + (pending ? PENDING_SESSION_MINUTES : deps.config.ACCESS_TOKEN_TTL_MINUTES) * 60_000),
      userAgent: (meta.userAgent ?? "").slice(0, USER_AGENT_MAX),
      ip: meta.ip,
    },
  });
  announceRowChange("Session", userId);
  return id;
}

/**
 * The user's sessions that have not ended nor expired, which of them await the second factor, and which were opened
 * through ClaveÚnica (cached per user).
 */
async function openSessions(deps: AppDeps, userId: number, read: CacheRead = "cached"): Promise<OpenSessions> {
  const load = async () => {
    const rows = await deps.prisma.session.findMany({
      where: { userId, endedAt: null, expiresAt: { gt: new Date() } },
      select: { id: true, secondFactorPending: true, signInMethod: true },
    });
    const ids = (keep: (row: (typeof rows)[number]) => boolean) => rows.filter(keep).map((row) => row.id);
    return {
      ids: ids(() => true),
      pending: ids((row) => row.secondFactorPending),
      claveunica: ids((row) => row.signInMethod === "claveunica"),
    };
  };
  const open = read === "fresh" ? await deps.cache.sessions.getFresh(userId, load) : await deps.cache.sessions.get(userId, load);
  return open ?? { ids: [], pending: [], claveunica: [] };
}

/** Whether a read may answer from the cache, or must ask the database (see UserCache.getFresh). */
export type CacheRead = "cached" | "fresh";

export interface OpenSessions {
  ids: readonly string[];
  pending: readonly string[];
  claveunica: readonly string[];
}

/** How an open session was opened ("password" for one that has ended: nothing is waived for it). */
export async function sessionSignInMethod(deps: AppDeps, userId: number, sessionId: string): Promise<SignInMethod> {
  return (await openSessions(deps, userId)).claveunica.includes(sessionId) ? "claveunica" : "password";
}

const lastSeenWritten = new Map<string, number>();

/**
 * The state of the token's session, or null when it has ended or expired; notes that it was used (at most every
 * LAST_SEEN_WRITE_MS).
 */
export async function sessionState(
  deps: AppDeps,
  userId: number,
  sessionId: string,
  read: CacheRead = "cached",
): Promise<SessionState | null> {
  const open = await openSessions(deps, userId, read);
  if (!open.ids.includes(sessionId)) return null;
  if (open.pending.includes(sessionId)) return "pending";
  const now = Date.now();
  if (now - (lastSeenWritten.get(sessionId) ?? 0) > LAST_SEEN_WRITE_MS) {
    if (lastSeenWritten.size > 50_000) lastSeenWritten.clear();
    lastSeenWritten.set(sessionId, now);
    deps.prisma.session
      .updateMany({ where: { id: sessionId, endedAt: null }, data: { lastSeenAt: new Date(now) } })
      .catch((error: unknown) => deps.logError(error, "could not note a session's last use"));
  }
  return "open";
}

/** The second factor was given: the password-only session becomes a full one, with the full lifetime. */
export async function completeSecondFactor(deps: AppDeps, userId: number, sessionId: string): Promise<void> {
  await deps.prisma.session.updateMany({
    where: { id: sessionId, userId, endedAt: null },
    data: {
      secondFactorPending: false,
      lastSeenAt: new Date(),
      expiresAt: new Date(Date.now() + deps.config.ACCESS_TOKEN_TTL_MINUTES * 60_000),
    },
  });
  announceRowChange("Session", userId);
}

export interface SessionSummary {
  id: string;
  userAgent: string;
  ip: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The user's open sessions ('Mi cuenta'), the most recently used first; password-only ones are not listed. */
export function listOpenSessions(deps: AppDeps, userId: number): Promise<SessionSummary[]> {
  return deps.prisma.session.findMany({
    where: { userId, endedAt: null, secondFactorPending: false, expiresAt: { gt: new Date() } },
    select: { id: true, userAgent: true, ip: true, createdAt: true, lastSeenAt: true },
    orderBy: [{ lastSeenAt: "desc" }, { createdAt: "desc" }],
    take: 100,
  });
}

/** Whether the user has signed in before from a browser with this user agent (for the new-device mail). */
export async function knownUserAgent(deps: AppDeps, userId: number, userAgent: string, except: string): Promise<boolean> {
  const earlier = await deps.prisma.session.findFirst({
    where: { userId, userAgent: userAgent.slice(0, USER_AGENT_MAX), secondFactorPending: false, id: { not: except } },
    select: { id: true },
  });
  return earlier !== null;
}

/** Ends one session of the user (nothing when it had ended already); true when this call ended it. */
export async function endSession(deps: AppDeps, userId: number, sessionId: string, reason: SessionEndReason): Promise<boolean> {
  const ended = await deps.prisma.session.updateMany({
    where: { id: sessionId, userId, endedAt: null },
    data: { endedAt: new Date(), endReason: reason },
  });
  announceRowChange("Session", userId);
  return ended.count === 1;
}

/** Ends every open session of the user but `keep` (the one making the change, when it goes on). */
export async function endOtherSessions(db: SessionWriter, userId: number, reason: SessionEndReason, keep?: string): Promise<void> {
  await db.session.updateMany({
    where: { userId, endedAt: null, ...(keep ? { id: { not: keep } } : {}) },
    data: { endedAt: new Date(), endReason: reason },
  });
  announceRowChange("Session", userId);
}
