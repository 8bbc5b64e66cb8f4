import type { Database } from "../db/database.ts";
import { announceNotification, onRowChange, rowChangesChannel, type CachedTable } from "../db/row-changes.ts";
import type { SessionUser } from "../http/authenticate.ts";

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

export type UserCaches = { users: UserCache<SessionUser>; privileges: UserCache<{ clinics: string[] }> };

export function createUserCaches(ttlMs: number): UserCaches {
  return { users: new UserCache("User", ttlMs), privileges: new UserCache("Privilege", ttlMs) };
}

/** Keeps the caches in step with the database's change feed; returns what stops it. */
export async function connectUserCaches(db: Database, caches: UserCaches): Promise<() => Promise<void>> {
  const setConnected = (connected: boolean) => {
    caches.users.setFeedConnected(connected);
    caches.privileges.setFeedConnected(connected);
  };
  const stop = await db.listen(rowChangesChannel, announceNotification, setConnected);
  return async () => {
    await stop();
    caches.users.close();
    caches.privileges.close();
  };
}
