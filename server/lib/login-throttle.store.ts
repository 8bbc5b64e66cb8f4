// The login-throttle counters' storage, apart from the rules (login-throttle.ts) so that each store (the database,
// Redis, the per-instance fallback) implements it without importing the module that chooses among them.

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
