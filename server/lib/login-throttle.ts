import type { AppDeps } from "../deps.ts";
import { AppError } from "./errors.ts";

// Password-attempt counters in the database (fixed window), per RUT and per client address, shared by every
// instance. An attempt is counted before the password is checked, in one atomic statement, so concurrent
// requests cannot all slip under the limit; a correct password gives the attempt back.

export const tooManyAttemptsMessage = "Demasiados intentos fallidos. Espere unos minutos e intente nuevamente.";

const rutKey = (rut: string) => `rut:${rut}`;
const ipKey = (ip: string) => `ip:${ip}`;

async function countAttempt(deps: AppDeps, key: string): Promise<number> {
  const windowStart = new Date(Date.now() - deps.config.LOGIN_WINDOW_MINUTES * 60_000);
  // A window that has ended starts again at 1; otherwise count up.
  const rows = await deps.prisma.$queryRaw<Array<{ failures: number }>>`
    INSERT INTO "LoginThrottle" ("key", "windowStart", "failures") VALUES (${key}, now(), 1)
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} THEN "LoginThrottle"."failures" + 1 ELSE 1 END,
      "windowStart" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} THEN "LoginThrottle"."windowStart" ELSE now() END
    RETURNING "failures"`;
  return Number(rows[0]?.failures ?? 0);
}

/**
 * Counts one password attempt for the RUT and the address; throws 429 once either has used up its attempts in the
 * window. Call before checking the password; call passwordAttemptSucceeded when it was right.
 */
export async function reservePasswordAttempt(deps: AppDeps, rut: string, ip: string): Promise<void> {
  const [byRut, byIp] = [await countAttempt(deps, rutKey(rut)), await countAttempt(deps, ipKey(ip))];
  if (byRut > deps.config.LOGIN_MAX_FAILURES_PER_RUT || byIp > deps.config.LOGIN_MAX_FAILURES_PER_IP) {
    throw new AppError("TOO_MANY_REQUESTS", tooManyAttemptsMessage);
  }
}

/** The password was right: the RUT starts afresh and the address gets its attempt back. */
export async function passwordAttemptSucceeded(deps: AppDeps, rut: string, ip: string): Promise<void> {
  await clearRutFailures(deps, rut);
  await deps.prisma.$executeRaw`UPDATE "LoginThrottle" SET "failures" = GREATEST("failures" - 1, 0) WHERE "key" = ${ipKey(ip)}`;
}

/** After a password reset the RUT starts afresh. */
export async function clearRutFailures(deps: AppDeps, rut: string): Promise<void> {
  await deps.prisma.loginThrottle.deleteMany({ where: { key: rutKey(rut) } });
}
