import { LRUCache } from "lru-cache";
import type { Database } from "../db/database.ts";
import { announceNotification, onRowChange, rowChangesChannel, type CachedTable } from "../db/row-changes.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";

/** The clock a cache measures time to live with: performance.now() in the portal, a fake one in tests. */
export interface CacheClock {
  now(): number;
}

/**
 * The one way the server caches what the database says: lru-cache, bounded (`max`) and expiring (`ttlMs`, 0 caches
 * nothing), for only as long as the database's change feed is connected, so every instance hears of a change committed
 * by any other (a password change voids the old tokens everywhere at once). Without the feed nothing is cached.
 *
 * A load that overlaps any eviction is not kept, so a row read just before a change committed cannot outlive it.
 */
class FeedCache<K extends string | number, V extends object | number> {
  readonly #entries: LRUCache<K, V> | null;
  #generation = 0;
  #feedConnected = false;
  readonly #unsubscribe: () => void;

  constructor(ttlMs: number, max: number, clock: CacheClock | undefined, onChange: (table: CachedTable | null, id: number | null) => void) {
    // ttlResolution 0: read the clock on every lookup (lru-cache otherwise reuses one reading for a millisecond).
    this.#entries = ttlMs > 0 ? new LRUCache<K, V>({ max, ttl: ttlMs, ttlResolution: 0, ...(clock ? { perf: clock } : {}) }) : null;
    this.#unsubscribe = onRowChange(onChange);
  }

  /** The change feed went up or down; down empties the cache and stops caching until it is back. */
  setFeedConnected(connected: boolean): void {
    this.#feedConnected = connected;
    if (!connected) this.forget(null);
  }

  /** Drops one entry, or every entry (null). */
  protected forget(key: K | null): void {
    this.#generation++;
    if (key === null) this.#entries?.clear();
    else this.#entries?.delete(key);
  }

  protected async load(key: K, load: () => Promise<V | null>, keep: (value: V) => V): Promise<V | null> {
    if (!this.#entries || !this.#feedConnected) return load();
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    const value = await load();
    if (value !== null && generation === this.#generation && this.#feedConnected) this.#entries.set(key, keep(value));
    return value;
  }

  /** Reads the row again whatever is cached (and caches what it read). */
  protected reload(key: K, load: () => Promise<V | null>, keep: (value: V) => V): Promise<V | null> {
    this.forget(key);
    return this.load(key, load, keep);
  }

  close(): void {
    this.#unsubscribe();
    this.#entries?.clear();
  }
}

/**
 * What a request needs to know about its user, by user id (a FeedCache). Cached values are frozen: they are shared by
 * concurrent requests.
 */
export class UserCache<T extends object> extends FeedCache<number, T> {
  constructor(
    readonly table: CachedTable,
    ttlMs: number,
    maxEntries = 10_000,
    clock?: CacheClock,
  ) {
    super(ttlMs, maxEntries, clock, (changed, id) => {
      // A user's row is the whole row: a change of its details counts too.
      if (changed === null || changed === table || (table === "User" && changed === "UserDetails")) this.forget(id);
    });
  }

  override forget(id: number | null): void {
    super.forget(id);
  }

  get(id: number, load: () => Promise<T | null>): Promise<T | null> {
    return this.load(id, load, (value) => Object.freeze(value));
  }

  /**
   * The user's row as the database has it now. For a refusal read from the cache: another instance's commit reaches
   * this one a moment later (the change feed), so a cached "no" may be one the person has just lifted there.
   */
  getFresh(id: number, load: () => Promise<T | null>): Promise<T | null> {
    return this.reload(id, load, (value) => Object.freeze(value));
  }
}

/**
 * Totals of list pages (the paginator's `total`), by the list's condition, so paging through a list of 100,000 rows
 * does not count them all again on every page (a FeedCache). Any committed change to the tables a total depends on
 * drops every total of this cache.
 */
export class CountCache extends FeedCache<string, number> {
  constructor(
    readonly tables: readonly CachedTable[],
    ttlMs: number,
    maxEntries = 5_000,
    clock?: CacheClock,
  ) {
    super(ttlMs, maxEntries, clock, (changed) => {
      if (changed === null || tables.includes(changed)) this.clear();
    });
  }

  clear(): void {
    this.forget(null);
  }

  /** `key` must identify the condition completely (e.g. the JSON of a Prisma where). */
  async get(key: string, count: () => Promise<number>): Promise<number> {
    return (await this.load(key, count, (total) => total))!;
  }
}

/** http/authenticate.ts's SessionUser, written out so that this module does not import the module that uses it. */
type CachedSessionUser = UserDtoSource & { tokenVersion: number; totpEnabledAt: Date | null };

export type UserCaches = {
  users: UserCache<CachedSessionUser>;
  privileges: UserCache<{ clinics: string[] }>;
  /**
   * Each user's sessions that have not ended, those of them still waiting for the second factor, and those opened
   * through ClaveÚnica (server/lib/sessions.ts).
   */
  sessions: UserCache<{ ids: string[]; pending: string[]; claveunica: string[] }>;
  /** Totals of the staff user list (they change with users) and of bill lists (bills, and users for the search). */
  userTotals: CountCache;
  billTotals: CountCache;
};

export function createUserCaches(ttlMs: number): UserCaches {
  return {
    users: new UserCache("User", ttlMs),
    privileges: new UserCache("Privilege", ttlMs),
    sessions: new UserCache("Session", ttlMs),
    userTotals: new CountCache(["User", "Privilege"], ttlMs),
    billTotals: new CountCache(["Bill", "User"], ttlMs),
  };
}

/** Keeps the caches in step with the database's change feed; returns what stops it. */
export async function connectUserCaches(db: Database, caches: UserCaches): Promise<() => Promise<void>> {
  const all = [caches.users, caches.privileges, caches.sessions, caches.userTotals, caches.billTotals];
  const setConnected = (connected: boolean) => {
    for (const cache of all) cache.setFeedConnected(connected);
  };
  const stop = await db.listen(rowChangesChannel, announceNotification, setConnected);
  return async () => {
    await stop();
    for (const cache of all) cache.close();
  };
}
