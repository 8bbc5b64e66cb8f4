import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { trackHeapAfterGc } from "./heap-after-gc.ts";

// What the soak judges (issue 46 §2): the heap and the resident memory a process keeps, read after each full collection
// rather than anywhere on the collector's sawtooth.
describe("the memory kept after a full collection", () => {
  const value = async (registry: Registry, name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? NaN;

  /** A tracker on its own registry with `settleMs`, and a way to force a full collection (node's gc(), exposed here). */
  async function tracking(settleMs: number, check: (registry: Registry, collect: () => void) => Promise<void>) {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const registry = new Registry();
    const tracker = trackHeapAfterGc(registry, settleMs);
    try {
      await check(registry, collect);
    } finally {
      tracker.stop();
    }
  }

  test("reads the heap at the collection, and the resident memory only once the settle time has passed", () =>
    tracking(1_500, async (registry, collect) => {
      expect(await value(registry, "portal_resident_memory_after_gc_bytes")).toBe(0);
      collect();
      // The collector's performance entry reaches the observer on a later turn of the event loop.
      await expect.poll(() => value(registry, "portal_heap_used_after_gc_bytes")).toBeGreaterThan(1024 * 1024);
      const heap = await value(registry, "portal_heap_used_after_gc_bytes");
      // Read at the collection's end, the RSS would still hold the pages V8 is about to hand back.
      expect(await value(registry, "portal_resident_memory_after_gc_bytes")).toBe(0);

      // The whole process holds the heap and more (code, buffers, the native side).
      await expect.poll(() => value(registry, "portal_resident_memory_after_gc_bytes"), { timeout: 5_000 }).toBeGreaterThan(heap);
      expect(await value(registry, "portal_resident_memory_after_gc_bytes")).toBeLessThan(4 * 1024 ** 3);
    }));

  test("a collection right after another does not push the resident memory's read back", () =>
    tracking(1_000, async (registry, collect) => {
      collect();
      await expect.poll(() => value(registry, "portal_heap_used_after_gc_bytes")).toBeGreaterThan(0);
      // Collections every half second, for as long as it takes: the read still comes one settle time after the first
      // (pushed back by each, it would never come).
      const collecting = setInterval(collect, 500);
      try {
        await expect.poll(() => value(registry, "portal_resident_memory_after_gc_bytes"), { timeout: 4_000 }).toBeGreaterThan(0);
      } finally {
        clearInterval(collecting);
      }
    }));
});
