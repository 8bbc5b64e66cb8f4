import { describe, expect, it } from "vitest";
import { ExpiringMap } from "./expiring-map.ts";

describe("ExpiringMap", () => {
  it("returns a value until its time is up, then forgets it", () => {
    let now = 1_000;
    const map = new ExpiringMap<string, string>(500, 10, () => now);
    map.set("11111111-1", "patient-1");
    now += 499;
    expect(map.get("11111111-1")).toBe("patient-1");
    now += 1;
    expect(map.get("11111111-1")).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it("keeps nothing when its time to live is zero", () => {
    const map = new ExpiringMap<string, string>(0, 10);
    map.set("a", "1");
    expect(map.get("a")).toBeUndefined();
  });

  it("drops the oldest entry past its size, however many keys pass through", () => {
    const map = new ExpiringMap<number, number>(60_000, 3);
    for (let key = 0; key < 100; key++) map.set(key, key);
    expect(map.size).toBe(3);
    expect(map.get(96)).toBeUndefined();
    expect([97, 98, 99].map((key) => map.get(key))).toEqual([97, 98, 99]);
  });
});
