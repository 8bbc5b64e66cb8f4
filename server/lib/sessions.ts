import { randomBytes } from "node:crypto";
import type { AppDeps, RequestMeta } from "../deps.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { announceRowChange } from "../db/row-changes.ts";

// Server-side sessions (issue 23, finding 3; the sessions of the second-factor issue build on them): one row per login,
// its id carried by every access token as `sid`. A token is accepted only while its session has not ended, checked on
// every request against the user's open sessions, which each instance caches only while it hears the database's change
// feed ("Session:<userId>" on every session made or ended), so an ended session is refused by every instance at once.

export type SessionEndReason = "logout" | "password";

/** How often a session's lastSeenAt is written while it is used: often enough to list sessions, rarely enough to be free. */
const LAST_SEEN_WRITE_MS = 5 * 60_000;
const USER_AGENT_MAX = 256;

type SessionWriter = Pick<PrismaClient, "session">;

/** Opens a session for a login and returns its id (the access token's `sid`). */
export async function startSession(deps: AppDeps, userId: number, meta: RequestMeta): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  // One clock for the start and the end (the database's default for createdAt could differ by a millisecond).
  const now = Date.now();
  await deps.prisma.session.create({
    data: {
      id,
      userId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + deps.config.ACCESS_TOKEN_TTL_MINUTES * 60_000),
      userAgent: (meta.userAgent ?? "").slice(0, USER_AGENT_MAX),
      ip: meta.ip,
    },
  });
  announceRowChange("Session", userId);
  return id;
}

/** The ids of the user's sessions that have not ended nor expired (cached per user, see the file's comment). */
async function openSessionIds(deps: AppDeps, userId: number): Promise<readonly string[]> {
  const open = await deps.cache.sessions.get(userId, async () => {
    const rows = await deps.prisma.session.findMany({
      where: { userId, endedAt: null, expiresAt: { gt: new Date() } },
      select: { id: true },
    });
    return { ids: rows.map((row) => row.id) };
  });
  return open?.ids ?? [];
}

const lastSeenWritten = new Map<string, number>();

/** Whether the token's session is still open; notes that it was used (at most every LAST_SEEN_WRITE_MS). */
export async function isSessionOpen(deps: AppDeps, userId: number, sessionId: string): Promise<boolean> {
  if (!(await openSessionIds(deps, userId)).includes(sessionId)) return false;
  const now = Date.now();
  if (now - (lastSeenWritten.get(sessionId) ?? 0) > LAST_SEEN_WRITE_MS) {
    if (lastSeenWritten.size > 50_000) lastSeenWritten.clear();
    lastSeenWritten.set(sessionId, now);
    deps.prisma.session
      .updateMany({ where: { id: sessionId, endedAt: null }, data: { lastSeenAt: new Date(now) } })
      .catch((error: unknown) => deps.logError(error, "could not note a session's last use"));
  }
  return true;
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
