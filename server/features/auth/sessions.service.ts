import type { AppDeps, RequestMeta } from "../../deps.ts";
import { secondFactorMessages, ZSessionIdInput, type ActiveSession } from "../../contract/second-factor.ts";
import type { AuthenticatedUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { recordAudit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { endOtherSessions, endSession, listOpenSessions } from "../../lib/sessions.ts";

// 'Mi cuenta' — Sesiones activas (issue 27): the person's own open sessions, each of which they can end, or all but
// the current one. Ending one takes effect on every instance at once (server/lib/sessions.ts).

/** A readable device from a user agent: browser and system, e.g. "Chrome en Windows". */
export function describeDevice(userAgent: string): string {
  if (!userAgent) return "Dispositivo desconocido";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : "Navegador";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return system ? `${browser} en ${system}` : browser;
}

export async function listSessions(deps: AppDeps, user: AuthenticatedUser): Promise<ActiveSession[]> {
  const sessions = await listOpenSessions(deps, user.id);
  return sessions.map((session) => ({
    id: session.id,
    device: describeDevice(session.userAgent),
    ip: session.ip,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    current: session.id === user.sessionId,
  }));
}

/** 'Cerrar sesión' on one of the person's sessions (their own only: another person's id answers 404, like a missing one). */
export async function endOwnSession(deps: AppDeps, user: AuthenticatedUser, input: unknown, meta: RequestMeta): Promise<true> {
  const { sessionId } = parseInput(ZSessionIdInput, input);
  const ended = await endSession(deps, user.id, sessionId, sessionId === user.sessionId ? "logout" : "ended-by-user");
  if (!ended) throw new AppError("NOT_FOUND", secondFactorMessages.sessionNotFound);
  await recordAudit(deps.prisma, { actorId: user.id, actorRole: user.roleType, action: "session.end", resource: "session", ip: meta.ip });
  return true;
}

/** 'Cerrar las demás sesiones': every open session of the person but this one. */
export async function endOtherOwnSessions(deps: AppDeps, user: AuthenticatedUser, meta: RequestMeta): Promise<true> {
  await endOtherSessions(deps.prisma, user.id, "ended-by-user", user.sessionId);
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: "session.end-others",
    resource: "session",
    ip: meta.ip,
  });
  return true;
}
