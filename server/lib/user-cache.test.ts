import { describe, expect, it } from "vitest";
import { announceRowChange } from "../db/row-changes.ts";
import { UserCache } from "./user-cache.ts";

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

  it("expires entries after their time to live and freezes what it shares between requests", async () => {
    const cache = new UserCache<{ name: string }>("User", 30);
    cache.setFeedConnected(true);
    const first = await cache.get(1, async () => row("a"));
    expect(Object.isFrozen(first)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await cache.get(1, async () => row("b"))).toEqual(row("b"));
    cache.close();
  });
});
