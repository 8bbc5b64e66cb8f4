import { describe, expect, it } from "vitest";
import { announceRowChange } from "../db/row-changes.ts";
import { CountCache, UserCache } from "./user-cache.ts";

const row = (name: string) => ({ name });

describe("UserCache", () => {
  it("caches nothing while the database's change feed is down", async () => {
    const cache = new UserCache<{ name: string }>("User", 60_000);
    let loads = 0;
    const load = async () => row(`v${++loads}`);
    await cache.get(1, load);
    await cache.get(1, load);
    expect(loads).toBe(2);
    cache.setFeedConnected(true);
    await cache.get(1, load);
    expect(await cache.get(1, load)).toEqual(row("v3"));
    cache.setFeedConnected(false);
    expect(await cache.get(1, load)).toEqual(row("v4"));
    cache.close();
  });

  it("drops a user on a change announced for that user, and everything on an unknown change", async () => {
    const cache = new UserCache<{ name: string }>("User", 60_000);
    cache.setFeedConnected(true);
    let version = 0;
    const load = async () => row(`v${++version}`);
    await cache.get(1, load);
    await cache.get(2, load);
    announceRowChange("Privilege", 1);
    expect(await cache.get(1, load)).toEqual(row("v1"));
    announceRowChange("User", 1);
    expect(await cache.get(1, load)).toEqual(row("v3"));
    expect(await cache.get(2, load)).toEqual(row("v2"));
    announceRowChange(null, null);
    expect(await cache.get(2, load)).toEqual(row("v4"));
    cache.close();
  });

  it("does not keep a row read while a change was being announced (it may predate the change)", async () => {
    const cache = new UserCache<{ name: string }>("User", 60_000);
    cache.setFeedConnected(true);
    const stale = cache.get(1, async () => {
      announceRowChange("User", 1);
      return row("read before the change committed");
    });
    expect(await stale).toEqual(row("read before the change committed"));
    expect(await cache.get(1, async () => row("fresh"))).toEqual(row("fresh"));
    cache.close();
  });

  it("expires entries after their time to live, on the clock it is given, and freezes what it shares between requests", async () => {
    let now = 1_000;
    const cache = new UserCache<{ name: string }>("User", 30, 10, { now: () => now });
    cache.setFeedConnected(true);
    const first = await cache.get(1, async () => row("a"));
    expect(Object.isFrozen(first)).toBe(true);
    now += 30;
    expect(await cache.get(1, async () => row("b"))).toEqual(row("a"));
    now += 1;
    expect(await cache.get(1, async () => row("b"))).toEqual(row("b"));
    cache.close();
  });

  it("keeps at most its bound, dropping the least recently used, and nothing at all with a time to live of 0", async () => {
    const cache = new UserCache<{ name: string }>("User", 60_000, 3);
    cache.setFeedConnected(true);
    for (let id = 0; id < 100; id++) await cache.get(id, async () => row(`first ${id}`));
    expect(await Promise.all([97, 98, 99].map((id) => cache.get(id, async () => row("again"))))).toEqual(
      [97, 98, 99].map((id) => row(`first ${id}`)),
    );
    expect(await cache.get(96, async () => row("again"))).toEqual(row("again"));
    cache.close();

    const none = new UserCache<{ name: string }>("User", 0);
    none.setFeedConnected(true);
    await none.get(1, async () => row("a"));
    expect(await none.get(1, async () => row("b"))).toEqual(row("b"));
    none.close();
  });
});

describe("a change to a user's details (phone, password, terms, second factor)", () => {
  it("drops that user's cached row and keeps the lists' totals, which count only by role, search text and clinics", async () => {
    const users = new UserCache<{ name: string }>("User", 60_000);
    const totals = new CountCache(["Bill", "User"], 60_000);
    for (const cache of [users, totals]) cache.setFeedConnected(true);
    let version = 0;
    const load = async () => row(`v${++version}`);
    let counted = 0;
    const count = async () => ++counted;
    await users.get(1, load);
    await totals.get("a", count);
    announceRowChange("UserDetails", 1);
    expect(await users.get(1, load)).toEqual(row("v2"));
    expect(await totals.get("a", count)).toBe(1);
    announceRowChange("User", 1);
    expect(await totals.get("a", count)).toBe(2);
    users.close();
    totals.close();
  });
});

describe("CountCache", () => {
  it("keeps a total until its time to live on the given clock, and drops every total on a change of its tables", async () => {
    // lru-cache reads a start time of 0 as "no time to live": a clock starts later than that.
    let now = 1_000;
    const cache = new CountCache(["Bill", "User"], 1_000, 10, { now: () => now });
    cache.setFeedConnected(true);
    let counted = 0;
    const count = async () => ++counted;
    expect(await cache.get("a", count)).toBe(1);
    expect(await cache.get("a", count)).toBe(1);
    announceRowChange("Privilege", 1);
    expect(await cache.get("a", count)).toBe(1);
    announceRowChange("Bill", 0);
    expect(await cache.get("a", count)).toBe(2);
    now += 1_001;
    expect(await cache.get("a", count)).toBe(3);
    cache.setFeedConnected(false);
    expect(await cache.get("a", count)).toBe(4);
    expect(await cache.get("a", count)).toBe(5);
    cache.close();
  });
});
