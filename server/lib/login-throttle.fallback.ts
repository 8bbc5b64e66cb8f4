import type { Redis } from "ioredis";
import { backoffMs, type Counter, type ThrottleStore } from "./login-throttle.store.ts";

// Issue 24, "Redis caído": with REDIS_URL the login counters live in Redis, shared by every instance. While Redis is
// away, logins must keep working and keep being limited: each instance counts in its own memory, with the same rules
// (a limit per instance instead of a shared one, so at most instances × limit attempts), and says so once per outage.
// When Redis answers again the shared counters take over.

interface Entry {
  failures: number;
  windowStart: number;
  lockedUntil: number | null;
}

const asCounter = (entry: Entry): Counter => ({
  failures: entry.failures,
  lockedUntil: entry.lockedUntil === null ? null : new Date(entry.lockedUntil),
});

/** The ThrottleStore rules (see databaseStore in login-throttle.ts) over a Map of this process. */
export function memoryThrottleStore(maxKeys = 100_000): ThrottleStore {
  const entries = new Map<string, Entry>();
  return {
    async peek(keys) {
      return keys.map((key) => {
        const entry = entries.get(key);
        return entry ? asCounter(entry) : null;
      });
    },
    async record(key, rule) {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry?.lockedUntil && entry.lockedUntil > now) return { counted: false, counter: asCounter(entry) };
      const live = entry && entry.windowStart > now - rule.windowMs;
      if (!entry && entries.size >= maxKeys) entries.delete(entries.keys().next().value!);
      const next: Entry = live
        ? { ...entry, failures: entry.failures + 1 }
        : { failures: 1, windowStart: now, lockedUntil: entry?.lockedUntil ?? null };
      if (next.failures >= rule.limit) next.lockedUntil = now + backoffMs(rule, next.failures - rule.limit + 1);
      entries.set(key, next);
      return { counted: true, counter: asCounter(next) };
    },
    async undo(key, startedLock) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.failures = Math.max(entry.failures - 1, 0);
      if (startedLock && entry.lockedUntil === startedLock.getTime()) entry.lockedUntil = null;
    },
    async forgive(pair, others) {
      const typos = entries.get(pair)?.failures ?? 0;
      entries.delete(pair);
      for (const key of others) {
        const entry = entries.get(key);
        if (entry) entry.failures = Math.max(entry.failures - typos, 0);
      }
    },
    async clearRut(rut) {
      entries.delete(`rut:${rut}`);
      for (const key of entries.keys()) if (key.startsWith(`pair:${rut}|`)) entries.delete(key);
    },
  };
}

export interface FallbackLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Redis while it is connected; this process's memory while it is not (or when a command fails). One warning when the
 * fallback starts, one line when Redis is back.
 */
export function withLocalFallback(shared: ThrottleStore, redis: Redis, local: ThrottleStore, log?: FallbackLog): ThrottleStore {
  let degraded = false;
  const use = async <T>(work: (store: ThrottleStore) => Promise<T>): Promise<T> => {
    if (redis.status === "ready") {
      try {
        const result = await work(shared);
        if (degraded) log?.info({}, "redis is back: login throttling shared again");
        degraded = false;
        return result;
      } catch (error) {
        if (!degraded) log?.warn({ err: error }, "redis unavailable: login throttling falls back to per-instance limits");
        degraded = true;
        return work(local);
      }
    }
    if (!degraded) log?.warn({ status: redis.status }, "redis unavailable: login throttling falls back to per-instance limits");
    degraded = true;
    return work(local);
  };
  return {
    peek: (keys) => use((store) => store.peek(keys)),
    record: (key, rule) => use((store) => store.record(key, rule)),
    undo: (key, startedLock) => use((store) => store.undo(key, startedLock)),
    forgive: (pair, others) => use((store) => store.forgive(pair, others)),
    clearRut: (rut) => use((store) => store.clearRut(rut)),
  };
}

const perRedis = new WeakMap<Redis, ThrottleStore>();

/** The one fallback-wrapped store of a Redis connection (its local counters live as long as the connection). */
export function sharedWithFallback(redis: Redis, shared: () => ThrottleStore, log?: FallbackLog): ThrottleStore {
  let store = perRedis.get(redis);
  if (!store) {
    store = withLocalFallback(shared(), redis, memoryThrottleStore(), log);
    perRedis.set(redis, store);
  }
  return store;
}
