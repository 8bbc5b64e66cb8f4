import type { AppDeps } from "../deps.ts";
import { AppError } from "./errors.ts";
import { redisThrottleStore } from "./login-throttle.redis.ts";
import { sharedWithFallback } from "./login-throttle.fallback.ts";

// Password-attempt throttling shared by every instance (issue 9, finding 5): in the database, or in Redis when REDIS_URL
// is set (issue 15; same rules, cheaper). Three counters:
//  - pair:<rut>|<address> — one address guessing one RUT: LOGIN_MAX_FAILURES_PER_PAIR free attempts;
//  - rut:<rut>            — one RUT guessed from anywhere: LOGIN_MAX_FAILURES_PER_RUT free attempts, then back-off for
//                           every address that has already failed on that RUT. An address with no failure on the RUT
//                           is not held back by it, so other people's failures never lock the owner out;
//  - ip:<address>         — one address trying many RUTs: LOGIN_MAX_FAILURES_PER_IP per window.
// Past its limit a counter allows one attempt per back-off period, which doubles with every attempt (base
// LOGIN_BACKOFF_BASE_SECONDS, at most LOGIN_BACKOFF_MAX_MINUTES) instead of a flat lock-out. Every attempt is counted
// before the password is checked, in one atomic statement, and the back-off slot is claimed atomically, so concurrent
// requests cannot slip past a limit; a correct password gives the attempt back.

export const tooManyAttemptsMessage = "Demasiados intentos fallidos. Espere unos minutos e intente nuevamente.";

const pairKey = (rut: string, ip: string) => `pair:${rut}|${ip}`;
const rutKey = (rut: string) => `rut:${rut}`;
const ipKey = (ip: string) => `ip:${ip}`;

export interface Counter {
  failures: number;
  lockedUntil: Date | null;
}

/** Where the counters live: the LoginThrottle table, or Redis when REDIS_URL is set (login-throttle.redis.ts). */
export interface ThrottleStore {
  /** Counts one attempt; a window that has ended (and is not backing off) starts again at 1. */
  count(key: string, windowMs: number): Promise<Counter>;
  /** Sets the next back-off if the counter is not backing off now; true for the one caller that set it. */
  claimBackoff(key: string, lockedUntil: Date, windowMs: number): Promise<boolean>;
  /** The pair starts afresh; the other counters get one attempt back. */
  giveBack(pair: string, others: [string, string]): Promise<void>;
  /** Drops the RUT's counter and every pair counter of that RUT. */
  clearRut(rut: string): Promise<void>;
}

function databaseStore(deps: AppDeps): ThrottleStore {
  return {
    async count(key, windowMs) {
      const windowStart = new Date(Date.now() - windowMs);
      const rows = await deps.prisma.$queryRaw<Array<{ failures: number; lockedUntil: Date | null }>>`
        INSERT INTO "LoginThrottle" ("key", "windowStart", "failures") VALUES (${key}, now(), 1)
        ON CONFLICT ("key") DO UPDATE SET
          "failures" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} OR "LoginThrottle"."lockedUntil" > now()
            THEN "LoginThrottle"."failures" + 1 ELSE 1 END,
          "windowStart" = CASE WHEN "LoginThrottle"."windowStart" > ${windowStart} OR "LoginThrottle"."lockedUntil" > now()
            THEN "LoginThrottle"."windowStart" ELSE now() END
        RETURNING "failures", "lockedUntil"`;
      const row = rows[0];
      return { failures: Number(row?.failures ?? 0), lockedUntil: row?.lockedUntil ?? null };
    },
    async claimBackoff(key, lockedUntil) {
      const claimed = await deps.prisma.$executeRaw`
        UPDATE "LoginThrottle" SET "lockedUntil" = ${lockedUntil}
        WHERE "key" = ${key} AND ("lockedUntil" IS NULL OR "lockedUntil" <= now())`;
      return claimed === 1;
    },
    async giveBack(pair, others) {
      await deps.prisma.loginThrottle.deleteMany({ where: { key: pair } });
      await deps.prisma.$executeRaw`
        UPDATE "LoginThrottle" SET "failures" = GREATEST("failures" - 1, 0) WHERE "key" IN (${others[0]}, ${others[1]})`;
    },
    async clearRut(rut) {
      await deps.prisma.loginThrottle.deleteMany({ where: { OR: [{ key: rutKey(rut) }, { key: { startsWith: `pair:${rut}|` } }] } });
    },
  };
}

// With Redis down, per-instance counters instead of failing every login (login-throttle.fallback.ts).
const throttleStore = (deps: AppDeps): ThrottleStore =>
  deps.redis
    ? sharedWithFallback(deps.redis, () => redisThrottleStore(deps.redis!, deps.config.REDIS_KEY_PREFIX), {
        warn: (details, message) => deps.logError((details as { err?: unknown }).err ?? new Error(message), message),
        info: () => {},
      })
    : databaseStore(deps);

/** Seconds to wait after the n-th attempt past the limit: base, 2×base, 4×base, … up to the maximum. */
export function backoffSeconds(deps: AppDeps, attemptsPastLimit: number): number {
  const max = deps.config.LOGIN_BACKOFF_MAX_MINUTES * 60;
  return Math.min(max, deps.config.LOGIN_BACKOFF_BASE_SECONDS * 2 ** Math.min(Math.max(attemptsPastLimit - 1, 0), 30));
}

const windowMs = (deps: AppDeps) => deps.config.LOGIN_WINDOW_MINUTES * 60_000;

/**
 * True when this attempt may go ahead under a counter: within the limit, or past it and the back-off slot is free —
 * claimed here atomically (only one concurrent request gets it), which also sets the next, doubled wait.
 */
async function mayAttempt(deps: AppDeps, store: ThrottleStore, key: string, counter: Counter, limit: number): Promise<boolean> {
  const now = Date.now();
  if (counter.lockedUntil && counter.lockedUntil.getTime() > now) return false;
  const pastLimit = counter.failures - limit;
  if (pastLimit <= 0) return true;
  return store.claimBackoff(key, new Date(now + backoffSeconds(deps, pastLimit) * 1000), windowMs(deps));
}

/**
 * Counts one password attempt for the (RUT, address) pair, the RUT and the address; throws 429 when this attempt must
 * wait. Call before checking the password; call passwordAttemptSucceeded when it was right.
 */
export async function reservePasswordAttempt(deps: AppDeps, rut: string, ip: string): Promise<void> {
  const { config } = deps;
  const store = throttleStore(deps);
  const pair = await store.count(pairKey(rut, ip), windowMs(deps));
  const byRut = await store.count(rutKey(rut), windowMs(deps));
  const byIp = await store.count(ipKey(ip), windowMs(deps));
  const refuse = () => new AppError("TOO_MANY_REQUESTS", tooManyAttemptsMessage);
  if (!(await mayAttempt(deps, store, pairKey(rut, ip), pair, config.LOGIN_MAX_FAILURES_PER_PAIR))) throw refuse();
  // Only addresses that have failed on this RUT before wait for the RUT's back-off; a new address goes ahead.
  const failedHereBefore = pair.failures > 1;
  if (failedHereBefore && !(await mayAttempt(deps, store, rutKey(rut), byRut, config.LOGIN_MAX_FAILURES_PER_RUT))) throw refuse();
  if (byIp.failures > config.LOGIN_MAX_FAILURES_PER_IP) throw refuse();
}

/** The password was right: the pair starts afresh, the RUT and the address get this attempt back. */
export async function passwordAttemptSucceeded(deps: AppDeps, rut: string, ip: string): Promise<void> {
  await throttleStore(deps).giveBack(pairKey(rut, ip), [rutKey(rut), ipKey(ip)]);
}

/** After a password reset the RUT starts afresh, from every address. */
export async function clearRutFailures(deps: AppDeps, rut: string): Promise<void> {
  await throttleStore(deps).clearRut(rut);
}
