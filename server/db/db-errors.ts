// Whether an error means "the database cannot be reached right now" (down, restarting, connection dropped), as
// opposed to a bug or a bad query. Those answer 503 with a Spanish message and Retry-After instead of a 500, and the
// portal recovers by itself when the database returns: the pool opens new connections on the next query.

const unreachableCodes = new Set([
  // Prisma: can't reach, timed out, server closed the connection, pool timeout
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  // PostgreSQL: admin shutdown, crash shutdown, starting up, connection failures, too many connections
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
  // Node sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);
const unreachableKinds = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const unreachableMessages =
  /Connection terminated|connection error|terminating connection|database system is (starting up|shutting down|in recovery mode)|Can't reach database|Server has closed the connection|timeout exceeded when trying to connect|Connection is closed/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === "object" && !seen.has(current); depth++) {
    seen.add(current);
    const candidate = current as { code?: unknown; kind?: unknown; message?: unknown; meta?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && unreachableCodes.has(candidate.code)) return true;
    if (typeof candidate.kind === "string" && unreachableKinds.has(candidate.kind)) return true;
    if (typeof candidate.message === "string" && unreachableMessages.test(candidate.message)) return true;
    const adapterError = (candidate.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
    current = adapterError ?? candidate.cause;
  }
  return false;
}

/** PostgreSQL's unique-violation code, as `pg` and PGlite report it on a statement sent through `deps.sql`. */
export const UNIQUE_VIOLATION = "23505";

/** A unique constraint refused the write: Prisma's P2002, or PostgreSQL's 23505 from SQL sent through the pool. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2002" || code === UNIQUE_VIOLATION;
}

/** PostgreSQL aborted this transaction to break a deadlock with another one; run again, it goes through. */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "40P01";
}
