import type { Redis } from "ioredis";
import type { Counter, ThrottleStore } from "./login-throttle.store.ts";

// The login-throttle counters in Redis (REDIS_URL): one hash per counter — f (failures), w (window start, ms),
// l (locked until, ms) — changed only by Lua scripts, so each step is atomic across instances. A counter expires when
// both its window and its back-off have passed, which is exactly when the database version would start it again at 1.
// Times are the instances' clocks (Date.now()), passed in, like the back-off times the database version computes.

// KEYS[1] the counter, KEYS[2] (pair counters) the set of the RUT's pairs; ARGV now, window, limit, base, max (ms).
const recordScript = `
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local base, max = tonumber(ARGV[4]), tonumber(ARGV[5])
local h = redis.call('HMGET', KEYS[1], 'f', 'w', 'l')
local f, w, l = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
if l and l > now then return {0, f or 0, l} end
if f and w and w > now - window then f = f + 1 else f = 1; w = now end
if f >= limit then
  l = now + math.min(max, base * 2 ^ math.min(f - limit, 30))
  redis.call('HSET', KEYS[1], 'f', f, 'w', w, 'l', l)
else
  redis.call('HSET', KEYS[1], 'f', f, 'w', w)
end
local keep = math.max(w + window, l or 0) - now
redis.call('PEXPIRE', KEYS[1], math.max(math.floor(keep), 1))
if KEYS[2] then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], math.max(math.floor(keep), redis.call('PTTL', KEYS[2]), 1))
end
return {1, f, l or -1}`;

const undoScript = `
local f = tonumber(redis.call('HGET', KEYS[1], 'f'))
if not f then return 0 end
redis.call('HSET', KEYS[1], 'f', math.max(f - 1, 0))
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'l') == ARGV[1] then redis.call('HDEL', KEYS[1], 'l') end
return 1`;

const forgiveScript = `
local typos = tonumber(redis.call('HGET', KEYS[1], 'f')) or 0
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  local f = tonumber(redis.call('HGET', KEYS[i], 'f'))
  if f and f > 0 then redis.call('HSET', KEYS[i], 'f', math.max(f - typos, 0)) end
end
return typos`;

const clearScript = `
local pairs = redis.call('SMEMBERS', KEYS[2])
for _, key in ipairs(pairs) do redis.call('DEL', key) end
redis.call('DEL', KEYS[1], KEYS[2])
return #pairs`;

/** The Redis key of a throttle counter ("pair:…", "rut:…", "ip:…"); tests read it to check the back-off. */
export const redisThrottleKey = (prefix: string, key: string) => `${prefix}login:${key}`;

const counterOf = (failures: string | number | null, lockedUntil: string | number | null): Counter => ({
  failures: Number(failures ?? 0),
  lockedUntil: lockedUntil === null || Number(lockedUntil) < 0 ? null : new Date(Number(lockedUntil)),
});

export function redisThrottleStore(redis: Redis, prefix: string): ThrottleStore {
  const k = (key: string) => redisThrottleKey(prefix, key);
  // Pair counters of one RUT, so that a password reset can drop them all without scanning the key space.
  const pairsOf = (rut: string) => `${prefix}login-pairs:${rut}`;
  const rutOfPair = (key: string) => (key.startsWith("pair:") ? key.slice("pair:".length, key.lastIndexOf("|")) : null);
  return {
    async peek(keys) {
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.hmget(k(key), "f", "l");
      const answers = (await pipeline.exec()) ?? [];
      return answers.map(([error, value]) => {
        if (error) throw error;
        const [failures, lockedUntil] = value as [string | null, string | null];
        return failures === null ? null : counterOf(failures, lockedUntil);
      });
    },
    async record(key, rule) {
      const rut = rutOfPair(key);
      const keys = rut === null ? [k(key)] : [k(key), pairsOf(rut)];
      const args = [Date.now(), rule.windowMs, rule.limit, rule.backoffBaseMs, rule.backoffMaxMs];
      const [counted, failures, lockedUntil] = (await redis.eval(recordScript, keys.length, ...keys, ...args)) as [number, number, number];
      return { counted: counted === 1, counter: counterOf(failures, lockedUntil) };
    },
    async undo(key, startedLock) {
      await redis.eval(undoScript, 1, k(key), startedLock ? String(startedLock.getTime()) : "");
    },
    async forgive(pair, others) {
      await redis.eval(forgiveScript, 1 + others.length, k(pair), ...others.map(k));
    },
    async clearRut(rut) {
      await redis.eval(clearScript, 2, k(`rut:${rut}`), pairsOf(rut));
    },
  };
}
