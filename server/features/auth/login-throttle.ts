import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../lib/errors.ts";

// Failed-login counters in the database (fixed window), per RUT and per client address, so every instance shares them.

export const tooManyAttemptsMessage = "Demasiados intentos fallidos. Espere unos minutos e intente nuevamente.";

function keysFor(rut: string, ip: string) {
  return [`rut:${rut}`, `ip:${ip}`] as const;
}

/** Throws 429 when the RUT or the address has used up its failures in the current window. */
export async function assertLoginAllowed(deps: AppDeps, rut: string, ip: string): Promise<void> {
  const { config, prisma } = deps;
  const windowStart = new Date(Date.now() - config.LOGIN_WINDOW_MINUTES * 60_000);
  const [rutKey, ipKey] = keysFor(rut, ip);
  const rows = await prisma.loginThrottle.findMany({ where: { key: { in: [rutKey, ipKey] }, windowStart: { gt: windowStart } } });
  const failures = (key: string) => rows.find((row) => row.key === key)?.failures ?? 0;
  if (failures(rutKey) >= config.LOGIN_MAX_FAILURES_PER_RUT || failures(ipKey) >= config.LOGIN_MAX_FAILURES_PER_IP) {
    throw new AppError("TOO_MANY_REQUESTS", tooManyAttemptsMessage);
  }
}

export async function recordLoginFailure(deps: AppDeps, rut: string, ip: string): Promise<void> {
  const windowStart = new Date(Date.now() - deps.config.LOGIN_WINDOW_MINUTES * 60_000);
  for (const key of keysFor(rut, ip)) {
    // A window that has ended starts again at 1; otherwise count up.
    await deps.prisma.$executeRaw`
      INSERT INTO "LoginThrottle" ("key", "windowStart", "failures") VALUES (${key}, now(), 1)
      ON CONFLICT ("key") DO UPDATE SET
        "failures" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} THEN "LoginThrottle"."failures" + 1 ELSE 1 END,
        "windowStart" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} THEN "LoginThrottle"."windowStart" ELSE now() END`;
  }
}

export async function clearRutFailures(deps: AppDeps, rut: string): Promise<void> {
  await deps.prisma.loginThrottle.deleteMany({ where: { key: `rut:${rut}` } });
}
