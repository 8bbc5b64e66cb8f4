import { randomBytes } from "node:crypto";
import type { AppDeps, RequestMeta } from "../deps.ts";
import { clientKey } from "./client-address.ts";
import { AppError } from "./errors.ts";
import { checksInFlight, type ChecksInFlight } from "./login-checks-in-flight.ts";
import type { Counter, CounterRule, Recorded, ThrottleStore } from "./login-throttle.store.ts";
import { redisThrottleStore } from "./login-throttle.redis.ts";
import { sha256 } from "./tokens.ts";
import { sharedWithFallback } from "./login-throttle.fallback.ts";

// Guessing throttle of passwords and second-factor codes, shared by every instance (issue 9, finding 5): in the
// database, or in Redis when REDIS_URL is set (issue 15; same rules). Addresses are counted by clientKey (an IPv6
// client by its /64). Counters, each of checked wrong guesses only:
//  - pair:<rut>|<address> — one address guessing one account: LOGIN_MAX_FAILURES_PER_PAIR free guesses;
//  - rut:<rut>            — one account guessed from anywhere: LOGIN_MAX_FAILURES_PER_RUT free guesses, then back-off
//                           for every address (issue 23, finding 4: a botnet or an IPv6 block buys no extra guesses),
//                           and an alert (warn log, metric) when the account reaches its limit;
//  - device:<nonce>       — a browser holding a device cookie from an earlier complete login of that account (OWASP's
//                           "device cookies"): counted by its cookie, with the pair's limit, instead of by the account
//                           and the address, so its owner signs in during an attack and behind a busy address;
//  - ip:<address>         — one address guessing many accounts: LOGIN_MAX_FAILURES_PER_IP per window.
// The codes of the second step count the same way under keys of their own ("2fa:" before the RUT), so guessing a code
// costs what guessing a password does, and the owner's device cookie exempts them as it does the password (issue 42,
// point 7). The guess that reaches a limit starts a back-off (LOGIN_BACKOFF_BASE_SECONDS, doubling with each guess
// past it, at most LOGIN_BACKOFF_MAX_MINUTES): the limit is exactly the number of guesses checked before the first wait.
// Issue 42, point 8 — many patients share one address (a clinic's Wi-Fi, a carrier's CGNAT):
//  - a guess refused with 429 counts nowhere, so a burst during a wait does not lengthen it or fill the address;
//  - a right secret is never counted, not even while it is being checked: the counters are read before the check and
//    written only for a wrong one, each counted atomically only if it still lets the guess through (concurrent guesses
//    cannot pass a limit); a right one is let in only if no counter started a wait meanwhile (a concurrent guess that
//    took the last free guess), so what a burst learns is what the same guesses sent one by one would;
//  - a right secret gives back the typos its (account, address) pair made to the account and the address;
//  - at most CHECKS_PER_ADDRESS checks run at once per address in an instance (login-checks-in-flight.ts).

/** Issue 33: the 429 says how long to wait ('Espere un minuto', 'Espere 2 minutos'), rounded up to whole minutes. */
export function tooManyAttemptsMessageFor(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const wait = minutes === 1 ? "Espere un minuto" : `Espere ${minutes} minutos`;
  return `Demasiados intentos fallidos. ${wait} e intente nuevamente.`;
}

/** More checks waiting at one address than people could be typing: refused without counting. */
const tooManyInFlightMessage = "Hay demasiados ingresos en curso desde su red. Espere un minuto e intente nuevamente.";

/** What is guessed: an account's password, or the code of its second step (counted apart, under "2fa:"). */
export type GuessedSecret = "password" | "code";

const pairKey = (account: string, ip: string) => `pair:${account}|${ip}`;
const rutKey = (account: string) => `rut:${account}`;
const ipKey = (ip: string) => `ip:${ip}`;
const accountKey = (rut: string, secret: GuessedSecret) => (secret === "code" ? `2fa:${rut}` : rut);
const deviceKey = (nonce: string, secret: GuessedSecret) => (secret === "code" ? `device:2fa:${nonce}` : `device:${nonce}`);

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

/**
 * The cookie a browser gets once a login of the RUT is complete — the password, and the code when the account has a
 * second factor: a password alone must not buy exemptions for code guesses (set by the transport: HttpOnly, Strict).
 */
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

// The back-off in SQL is the same as backoffMs (login-throttle.store.ts): base × 2^(guesses past the limit), capped.
function databaseStore(deps: AppDeps): ThrottleStore {
  const { prisma } = deps;
  return {
    async peek(keys) {
      const rows = await prisma.loginThrottle.findMany({ where: { key: { in: keys } } });
      return keys.map((key) => rows.find((row) => row.key === key) ?? null);
    },
    async record(key, rule): Promise<Recorded> {
      const now = new Date();
      const freshAfter = new Date(now.getTime() - rule.windowMs);
      const [baseSeconds, maxSeconds] = [rule.backoffBaseMs / 1000, rule.backoffMaxMs / 1000];
      // One statement: the row lock of ON CONFLICT serialises concurrent guesses; a row backing off is left as it is
      // (the WHERE), and then nothing is returned.
      const rows = await prisma.$queryRaw<Array<{ failures: number; lockedUntil: Date | null }>>`
        INSERT INTO "LoginThrottle" AS t ("key", "windowStart", "failures", "lockedUntil")
        VALUES (${key}, ${now}, 1, CASE WHEN 1 >= ${rule.limit}::int
          THEN CAST(${now} AS timestamp(3)) + make_interval(secs => ${baseSeconds}::float8) END)
        ON CONFLICT ("key") DO UPDATE SET
          "failures" = CASE WHEN t."windowStart" > ${freshAfter} THEN t."failures" + 1 ELSE 1 END,
          "windowStart" = CASE WHEN t."windowStart" > ${freshAfter} THEN t."windowStart" ELSE ${now} END,
          "lockedUntil" = CASE
            WHEN (CASE WHEN t."windowStart" > ${freshAfter} THEN t."failures" + 1 ELSE 1 END) >= ${rule.limit}::int
            THEN CAST(${now} AS timestamp(3)) + make_interval(secs => LEAST(${maxSeconds}::float8, ${baseSeconds}::float8 *
              power(2, LEAST((CASE WHEN t."windowStart" > ${freshAfter} THEN t."failures" + 1 ELSE 1 END) - ${rule.limit}::int, 30))))
            ELSE t."lockedUntil" END
        WHERE t."lockedUntil" IS NULL OR t."lockedUntil" <= ${now}
        RETURNING "failures", "lockedUntil"`;
      const row = rows[0];
      if (row) return { counted: true, counter: { failures: Number(row.failures), lockedUntil: row.lockedUntil } };
      const [current] = await this.peek([key]);
      return { counted: false, counter: current ?? { failures: 0, lockedUntil: null } };
    },
    async undo(key, startedLock) {
      await prisma.$executeRaw`
        UPDATE "LoginThrottle" SET "failures" = GREATEST("failures" - 1, 0),
          "lockedUntil" = CASE WHEN "lockedUntil" = CAST(${startedLock} AS timestamp(3)) THEN NULL ELSE "lockedUntil" END
        WHERE "key" = ${key}`;
    },
    async forgive(pair, others) {
      const [gone] = await prisma.$queryRaw<Array<{ failures: number }>>`
        DELETE FROM "LoginThrottle" WHERE "key" = ${pair} RETURNING "failures"`;
      // The others are the account's (or device's) and the address's counters: at most two.
      for (const key of gone ? others : []) {
        await prisma.$executeRaw`
          UPDATE "LoginThrottle" SET "failures" = GREATEST("failures" - ${Number(gone!.failures)}::int, 0) WHERE "key" = ${key}`;
      }
    },
    async clearRut(rut) {
      await prisma.loginThrottle.deleteMany({ where: { OR: [{ key: rutKey(rut) }, { key: { startsWith: `pair:${rut}|` } }] } });
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

const inFlight = new WeakMap<AppDeps, ChecksInFlight>();
const checksOf = (deps: AppDeps) => {
  let checks = inFlight.get(deps);
  if (!checks) inFlight.set(deps, (checks = checksInFlight()));
  return checks;
};

const ruleOf = (deps: AppDeps, limit: number): CounterRule => ({
  limit,
  windowMs: deps.config.LOGIN_WINDOW_MINUTES * 60_000,
  backoffBaseMs: deps.config.LOGIN_BACKOFF_BASE_SECONDS * 1000,
  backoffMaxMs: deps.config.LOGIN_BACKOFF_MAX_MINUTES * 60_000,
});

const waiting = (counter: Counter | null, now = Date.now()) => (counter?.lockedUntil ? counter.lockedUntil.getTime() > now : false);

const refusal = (counter: Counter | null) =>
  new AppError("TOO_MANY_REQUESTS", tooManyAttemptsMessageFor(counter?.lockedUntil ? counter.lockedUntil.getTime() - Date.now() : 60_000));

/**
 * One guess of an account's password or second-factor code, from the request's address and browser. `check` says
 * whether the secret is right and must change nothing (a right code is spent by the caller afterwards). Returns true
 * for a right secret, false for a wrong one (counted); throws 429, counting nothing, when the guess must wait.
 */
export async function throttledGuess(
  deps: AppDeps,
  rut: string,
  secret: GuessedSecret,
  meta: RequestMeta,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { config } = deps;
  const store = throttleStore(deps);
  const client = clientKey(meta.ip);
  const account = accountKey(rut, secret);
  const device = trustedDevice(deps, rut, meta);
  const pair = pairKey(account, client);
  // In order: each counter is counted only once the ones before it let the guess through.
  const counters: Array<[string, number]> = [
    [pair, config.LOGIN_MAX_FAILURES_PER_PAIR],
    ...(device
      ? ([[deviceKey(device, secret), config.LOGIN_MAX_FAILURES_PER_PAIR]] as Array<[string, number]>)
      : ([
          [rutKey(account), config.LOGIN_MAX_FAILURES_PER_RUT],
          [ipKey(client), config.LOGIN_MAX_FAILURES_PER_IP],
        ] as Array<[string, number]>)),
  ];
  const keys = counters.map(([key]) => key);
  const waitingOne = async () => (await store.peek(keys)).find((counter) => waiting(counter)) ?? null;

  const outcome = await checksOf(deps).run(client, async () => {
    const before = await waitingOne();
    if (before) throw refusal(before);
    if (await check()) {
      const meanwhile = await waitingOne();
      if (meanwhile) throw refusal(meanwhile);
      await store.forgive(pair, keys.slice(1));
      return true;
    }
    const counted: Array<[string, Date | null]> = [];
    for (const [key, limit] of counters) {
      const recorded = await store.record(key, ruleOf(deps, limit));
      if (!recorded.counted) {
        for (const [done, startedLock] of counted.reverse()) await store.undo(done, startedLock);
        throw refusal(recorded.counter);
      }
      const reachedLimit = recorded.counter.failures >= limit;
      counted.push([key, reachedLimit ? recorded.counter.lockedUntil : null]);
      if (key === rutKey(account) && recorded.counter.failures === limit) alertRutLimit(deps, rut, recorded.counter.failures);
    }
    return false;
  });
  if (outcome === null) throw new AppError("TOO_MANY_REQUESTS", tooManyInFlightMessage);
  return outcome;
}

/** Logs keep no RUT (server/http/log-redaction.ts): a hash follows one attack across lines; the audit names the account. */
function alertRutLimit(deps: AppDeps, rut: string, failures: number): void {
  const rutHash = sha256(`portal-log:${rut}`).slice(0, 12);
  deps.logWarn?.({ rutHash, failures, windowMinutes: deps.config.LOGIN_WINDOW_MINUTES }, "login: a RUT passed its failed-attempt limit");
  deps.metrics?.loginRutLimitReached();
}

/** After a password reset the RUT starts afresh, from every address. */
export async function clearRutFailures(deps: AppDeps, rut: string): Promise<void> {
  await throttleStore(deps).clearRut(rut);
}
