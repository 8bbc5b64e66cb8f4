// The login-throttle counters' storage, apart from the rules (login-throttle.ts) so that each store (the database,
// Redis, the per-instance fallback) implements it without importing the module that chooses among them.

export interface Counter {
  failures: number;
  lockedUntil: Date | null;
}

/** How one counter counts: its free guesses in a window, then a back-off that doubles with each guess past them. */
export interface CounterRule {
  limit: number;
  windowMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The answer of `record`: whether the guess was counted (let through), and the counter as it stands after. */
export interface Recorded {
  counted: boolean;
  counter: Counter;
}

/**
 * Where the counters live: the LoginThrottle table, or Redis when REDIS_URL is set (login-throttle.redis.ts). Only
 * checked wrong guesses are counted: a refused guess, or a right one, changes nothing.
 */
export interface ThrottleStore {
  /** The counters as they stand (null where there is none); changes nothing. */
  peek(keys: string[]): Promise<Array<Counter | null>>;
  /**
   * Counts one wrong guess, unless the counter is backing off now (then nothing changes and counted is false). A window
   * that has ended starts again at 1. The guess that reaches the limit, and each one past it, starts the next back-off:
   * base, 2×base, 4×base… up to the maximum (backoffMs).
   */
  record(key: string, rule: CounterRule): Promise<Recorded>;
  /** Takes back a guess `record` counted (a later counter refused it), and the back-off it started, if still the same. */
  undo(key: string, startedLock: Date | null): Promise<void>;
  /** A right secret: the pair starts afresh and the other counters get back the pair's failures (the owner's typos). */
  forgive(pair: string, others: string[]): Promise<void>;
  /** Drops the RUT's counter and every pair counter of that RUT. */
  clearRut(rut: string): Promise<void>;
}

/** The back-off the n-th guess from the limit on starts: base, 2×base, 4×base… up to the maximum. */
export const backoffMs = (rule: CounterRule, guessesFromLimit: number): number =>
  Math.min(rule.backoffMaxMs, rule.backoffBaseMs * 2 ** Math.min(Math.max(guessesFromLimit - 1, 0), 30));
