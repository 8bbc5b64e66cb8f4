import type { Redis } from "ioredis";
import type { Counter, ThrottleStore } from "./login-throttle.store.ts";

// The login-throttle counters in Redis (REDIS_URL): one hash per counter — f (failures), w (window start, ms),
// l (locked until, ms) — changed only by Lua scripts, so each step is atomic across instances. A counter expires when
// both its window and its back-off have passed, which is exactly when the database version would start it again at 1.
// Times are the instances' clocks (Date.now()), passed in, like the back-off times the database version computes.

const countScript = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'f', 'w', 'l')
local f, w, l = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
if f and w and (w > now - window or (l and l > now)) then f = f + 1 else f = 1; w = now end
redis.call('HSET', KEYS[1], 'f', f, 'w', w)
local keep = math.max(w + window, l or 0) - now
redis.call('PEXPIRE', KEYS[1], math.max(math.floor(keep), 1))
if KEYS[2] then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], math.max(math.floor(keep), redis.call('PTTL', KEYS[2]), 1))
end
return {f, l or -1}`;

const claimScript = `
local now = tonumber(ARGV[1])
local lockedUntil = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local h = redis.call('HMGET', KEYS[1], 'w', 'l')
local w, l = tonumber(h[1]) or now, tonumber(h[2])
if l and l > now then return 0 end
redis.call('HSET', KEYS[1], 'l', lockedUntil)
redis.call('PEXPIRE', KEYS[1], math.max(math.floor(math.max(w + window, lockedUntil) - now), 1))
return 1`;

const giveBackScript = `
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  local f = tonumber(redis.call('HGET', KEYS[i], 'f'))
  if f and f > 0 then redis.call('HSET', KEYS[i], 'f', f - 1) end
end
return 1`;

const clearScript = `
local pairs = redis.call('SMEMBERS', KEYS[2])
for _, key in ipairs(pairs) do redis.call('DEL', key) end
redis.call('DEL', KEYS[1], KEYS[2])
return #pairs`;

/** The Redis key of a throttle counter ("pair:…", "rut:…", "ip:…"); tests read it to check the back-off. */
export const redisThrottleKey = (prefix: string, key: string) => `${prefix}login:${key}`;

export function redisThrottleStore(redis: Redis, prefix: string): ThrottleStore {
  const k = (key: string) => redisThrottleKey(prefix, key);
  // Pair counters of one RUT, so that a password reset can drop them all without scanning the key space.
  const pairsOf = (rut: string) => `${prefix}login-pairs:${rut}`;
  const rutOfPair = (key: string) => (key.startsWith("pair:") ? key.slice("pair:".length, key.lastIndexOf("|")) : null);
  return {
    async count(key, windowMs): Promise<Counter> {
      const rut = rutOfPair(key);
      const keys = rut === null ? [k(key)] : [k(key), pairsOf(rut)];
      const [failures, lockedUntil] = (await redis.eval(countScript, keys.length, ...keys, Date.now(), windowMs)) as [number, number];
      return { failures, lockedUntil: lockedUntil < 0 ? null : new Date(lockedUntil) };
    },
    async claimBackoff(key, lockedUntil, windowMs) {
      return (await redis.eval(claimScript, 1, k(key), Date.now(), lockedUntil.getTime(), windowMs)) === 1;
    },
    async giveBack(pair, others) {
      await redis.eval(giveBackScript, 1 + others.length, k(pair), ...others.map(k));
    },
    async clearRut(rut) {
      await redis.eval(clearScript, 2, k(`rut:${rut}`), pairsOf(rut));
    },
  };
}
