import type { Database } from "../db/database.ts";
import { announceNotification, onRowChange, rowChangesChannel, type CachedTable } from "../db/row-changes.ts";
import type { UserDtoSource } from "../contract/users.dto.ts";

/**
 * What a request needs to know about its user, cached per user id in this process, for as long as the database's
 * change feed is connected (so every instance hears of a change committed by any other: a password change voids the
 * old tokens everywhere at once) and at most `ttlMs`. Without the feed nothing is cached.
 *
 * A load that overlaps any eviction is not kept, so a row read just before a change committed cannot outlive it.
 * Cached values are frozen: they are shared by concurrent requests.
 */
export class UserCache<T extends object> {
  readonly #entries = new Map<number, { value: T; expiresAt: number }>();
  #generation = 0;
  #feedConnected = false;
  readonly #unsubscribe: () => void;

  constructor(
    readonly table: CachedTable,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    this.#unsubscribe = onRowChange((changed, id) => {
      if (changed === null || changed === table) this.forget(id);
    });
  }

  /** The change feed went up or down; down empties the cache and stops caching until it is back. */
  setFeedConnected(connected: boolean): void {
    this.#feedConnected = connected;
    if (!connected) this.forget(null);
  }

  forget(id: number | null): void {
    this.#generation++;
    if (id === null) this.#entries.clear();
    else this.#entries.delete(id);
  }

  async get(id: number, load: () => Promise<T | null>): Promise<T | null> {
    if (!this.#feedConnected || this.ttlMs <= 0) return load();
    const hit = this.#entries.get(id);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const generation = this.#generation;
    const value = await load();
    if (value !== null && generation === this.#generation && this.#feedConnected) {
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(id, { value: Object.freeze(value), expiresAt: Date.now() + this.ttlMs });
    }
    return value;
  }

  close(): void {
    this.#unsubscribe();
    this.#entries.clear();
  }
}

/**
 * Totals of list pages (the paginator's `total`), by the list's condition, so paging through a list of 100,000 rows
 * does not count them all again on every page. Any committed change to the tables a total depends on drops every
 * total of this cache; like UserCache, it keeps nothing without the change feed.
 */
export class CountCache {
  readonly #totals = new Map<string, { total: number; expiresAt: number }>();
  #generation = 0;
  #feedConnected = false;
  readonly #unsubscribe: () => void;

  constructor(
    readonly tables: readonly CachedTable[],
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
  ) {
    this.#unsubscribe = onRowChange((changed) => {
      if (changed === null || tables.includes(changed)) this.clear();
    });
  }

  setFeedConnected(connected: boolean): void {
    this.#feedConnected = connected;
    if (!connected) this.clear();
  }

  clear(): void {
    this.#generation++;
    this.#totals.clear();
  }

  /** `key` must identify the condition completely (e.g. the JSON of a Prisma where). */
  async get(key: string, count: () => Promise<number>): Promise<number> {
    if (!this.#feedConnected || this.ttlMs <= 0) return count();
    const hit = this.#totals.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.total;
    const generation = this.#generation;
    const total = await count();
    if (generation === this.#generation && this.#feedConnected) {
      if (this.#totals.size >= this.maxEntries) this.#totals.delete(this.#totals.keys().next().value!);
      this.#totals.set(key, { total, expiresAt: Date.now() + this.ttlMs });
    }
    return total;
  }

  close(): void {
    this.#unsubscribe();
    this.#totals.clear();
  }
}

/** http/authenticate.ts's SessionUser, written out so that this module does not import the module that uses it. */
type CachedSessionUser = UserDtoSource & { tokenVersion: number };

export type UserCaches = {
  users: UserCache<CachedSessionUser>;
  privileges: UserCache<{ clinics: string[] }>;
  /** Totals of the staff user list (they change with users) and of bill lists (bills, and users for the search). */
  userTotals: CountCache;
  billTotals: CountCache;
};

export function createUserCaches(ttlMs: number): UserCaches {
  return {
    users: new UserCache("User", ttlMs),
    privileges: new UserCache("Privilege", ttlMs),
    userTotals: new CountCache(["User", "Privilege"], ttlMs),
    billTotals: new CountCache(["Bill", "User"], ttlMs),
  };
}

/** Keeps the caches in step with the database's change feed; returns what stops it. */
export async function connectUserCaches(db: Database, caches: UserCaches): Promise<() => Promise<void>> {
  const all = [caches.users, caches.privileges, caches.userTotals, caches.billTotals];
  const setConnected = (connected: boolean) => {
    for (const cache of all) cache.setFeedConnected(connected);
  };
  const stop = await db.listen(rowChangesChannel, announceNotification, setConnected);
  return async () => {
    await stop();
    for (const cache of all) cache.close();
  };
}
