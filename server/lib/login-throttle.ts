import { randomBytes } from "node:crypto";
import type { AppDeps, RequestMeta } from "../deps.ts";
import { clientKey } from "./client-address.ts";
import { AppError } from "./errors.ts";
import type { Counter, ThrottleStore } from "./login-throttle.store.ts";
import { redisThrottleStore } from "./login-throttle.redis.ts";
import { sha256 } from "./tokens.ts";
import { sharedWithFallback } from "./login-throttle.fallback.ts";

// Password-attempt throttling shared by every instance (issue 9, finding 5): in the database, or in Redis when REDIS_URL
// is set (issue 15; same rules, cheaper). Addresses are counted by clientKey (an IPv6 client by its /64). Counters:
//  - pair:<rut>|<address> — one address guessing one RUT: LOGIN_MAX_FAILURES_PER_PAIR free attempts;
//  - rut:<rut>            — one RUT guessed from anywhere: LOGIN_MAX_FAILURES_PER_RUT free attempts, then back-off for
//                           every address (issue 23, finding 4: a botnet or an IPv6 block buys no extra guesses), and
//                           an alert (warn log, metric) when the RUT passes its limit;
//  - device:<nonce>       — a browser holding a device cookie from an earlier successful login of that RUT (OWASP's
//                           "device cookies"): it is not held back by the RUT's counter, so the owner still signs in
//                           during an attack, but by its own, with the pair's limit;
//  - ip:<address>         — one address trying many RUTs: LOGIN_MAX_FAILURES_PER_IP per window.
// Past its limit a counter allows one attempt per back-off period, which doubles with every attempt (base
// LOGIN_BACKOFF_BASE_SECONDS, at most LOGIN_BACKOFF_MAX_MINUTES) instead of a flat lock-out. Every attempt is counted
// before the password is checked, in one atomic statement, and the back-off slot is claimed atomically, so concurrent
// requests cannot slip past a limit; a correct password gives the attempt back.

/** Issue 33: the 429 says how long to wait ('Espere un minuto', 'Espere 2 minutos'), rounded up to whole minutes. */
export function tooManyAttemptsMessageFor(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const wait = minutes === 1 ? "Espere un minuto" : `Espere ${minutes} minutos`;
  return `Demasiados intentos fallidos. ${wait} e intente nuevamente.`;
}

/** How long a refused attempt must wait: until the counter's back-off ends, or (no back-off known) the window. */
function waitMsOf(deps: AppDeps, counter: Counter | null): number {
  const lockedFor = counter?.lockedUntil ? counter.lockedUntil.getTime() - Date.now() : 0;
  return lockedFor > 0 ? lockedFor : windowMs(deps);
}

const pairKey = (rut: string, ip: string) => `pair:${rut}|${ip}`;
const rutKey = (rut: string) => `rut:${rut}`;
const ipKey = (ip: string) => `ip:${ip}`;
const deviceKey = (nonce: string) => `device:${nonce}`;

/** How long a browser stays recognised after a successful login. */
export const DEVICE_COOKIE_DAYS = 180;
const deviceSubject = (rut: string) => sha256(`portal-device:${rut}`);

/** The device cookie of one RUT: one per RUT, so a family's shared computer keeps each person's. */
export const deviceCookieName = (rut: string) => `pp_dispositivo_${deviceSubject(rut).slice(0, 16)}`;

export interface DeviceCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/** The cookie a browser gets after a successful login of the RUT (set by the transport: HttpOnly, SameSite=Strict). */
export function deviceCookieFor(deps: Pick<AppDeps, "tokens">, rut: string): DeviceCookie {
  return {
    name: deviceCookieName(rut),
    value: deps.tokens.signDevice(deviceSubject(rut), randomBytes(16).toString("base64url"), DEVICE_COOKIE_DAYS),
    maxAgeSeconds: DEVICE_COOKIE_DAYS * 86_400,
  };
}

/** The nonce of the browser's device cookie for this RUT, when it is genuine and unexpired; otherwise null. */
function trustedDevice(deps: Pick<AppDeps, "tokens">, rut: string, meta: RequestMeta): string | null {
  const value = meta.cookies?.[deviceCookieName(rut)];
  const device = value ? deps.tokens.verifyDevice(value) : null;
  return device && device.subject === deviceSubject(rut) ? device.nonce : null;
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

// With Redis down, per-instance counters instead of failing every login (login-throttle.fallback.ts). The refused-access
// counters (refused-access.ts) live in the same store, under keys of their own.
export const throttleStore = (deps: AppDeps): ThrottleStore =>
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

/** The counters one attempt used, to give it back when the password was right. */
export interface PasswordAttempt {
  pair: string;
  others: [string, string];
}

/**
 * Counts one password attempt for the (RUT, address) pair, the RUT (or the browser's device cookie of that RUT) and
 * the address; throws 429 when this attempt must wait. Call before checking the password; call passwordAttemptSucceeded
 * with the answer when it was right.
 */
export async function reservePasswordAttempt(deps: AppDeps, rut: string, meta: RequestMeta): Promise<PasswordAttempt> {
  const { config } = deps;
  const store = throttleStore(deps);
  const client = clientKey(meta.ip);
  const device = trustedDevice(deps, rut, meta);
  // A recognised browser is counted by its cookie instead of by the RUT, with the pair's limit.
  const [ownKey, ownLimit] = device
    ? [deviceKey(device), config.LOGIN_MAX_FAILURES_PER_PAIR]
    : [rutKey(rut), config.LOGIN_MAX_FAILURES_PER_RUT];
  const refuse = (counter: Counter | null) => new AppError("TOO_MANY_REQUESTS", tooManyAttemptsMessageFor(waitMsOf(deps, counter)));
  // Each counter is counted only once the ones before it let the attempt through. Counted all at once, attempts sent at
  // the same moment took their places in line on each counter in a different order: one of the pair's first three
  // could find the RUT's counter already filled by attempts the pair then refused (CI saw 2 checked where the limit is 3).
  const pair = await store.count(pairKey(rut, client), windowMs(deps));
  if (!(await mayAttempt(deps, store, pairKey(rut, client), pair, config.LOGIN_MAX_FAILURES_PER_PAIR))) throw refuse(pair);
  const own = await store.count(ownKey, windowMs(deps));
  if (!device && own.failures === ownLimit + 1) {
    // Logs keep no RUT (server/http/log-redaction.ts): a hash follows one attack across lines; the audit's denied
    // login rows name the account.
    const rutHash = sha256(`portal-log:${rut}`).slice(0, 12);
    deps.logWarn?.(
      { rutHash, failures: own.failures, windowMinutes: config.LOGIN_WINDOW_MINUTES },
      "login: a RUT passed its failed-attempt limit",
    );
    deps.metrics?.loginRutLimitReached();
  }
  if (!(await mayAttempt(deps, store, ownKey, own, ownLimit))) throw refuse(own);
  const byIp = await store.count(ipKey(client), windowMs(deps));
  if (byIp.failures > config.LOGIN_MAX_FAILURES_PER_IP) throw refuse(null);
  return { pair: pairKey(rut, client), others: [ownKey, ipKey(client)] };
}

/** The password was right: the pair starts afresh, the RUT (or device) and the address get this attempt back. */
export async function passwordAttemptSucceeded(deps: AppDeps, attempt: PasswordAttempt): Promise<void> {
  await throttleStore(deps).giveBack(attempt.pair, attempt.others);
}

/** After a password reset the RUT starts afresh, from every address. */
export async function clearRutFailures(deps: AppDeps, rut: string): Promise<void> {
  await throttleStore(deps).clearRut(rut);
}
