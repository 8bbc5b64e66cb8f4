import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";

// What the process keeps, read right after the last full (mark-sweep-compact) collection, without the garbage it has
// not collected yet: the V8 heap in use, and the process's resident memory. nodejs_heap_size_used_bytes and
// process_resident_memory_bytes, read at any moment, saw up and down with the collector, and a trend fitted over a
// sawtooth moves with where the run happened to stop; these move only when what is kept grows (issue 46 §2, the soak
// judges them). 0 until the first full collection.
//
// The RSS saws because V8 lets its old generation grow by at least 8 MB past what the last full collection kept before
// it collects again (MinimumAllocationLimitGrowingStep in V8's heap controller) and reserves pages for it as it goes;
// the soak of 29-11-2026, 19:18 UTC, saw each replica's old space reserved at 70–81 MB while the kept heap held to
// 0.01–0.05 MB/min. After a full collection V8 sweeps and hands the emptied pages back to the system on background
// threads, so the RSS is read RSS_SETTLE_MS later: the sawtooth's valley, not its peak.

/** How long after a full collection the RSS is read (sweeping and unmapping done; a few kB promoted since). */
export const RSS_SETTLE_MS = 5_000;

export function trackHeapAfterGc(registry: Registry, rssSettleMs = RSS_SETTLE_MS): { stop(): void } {
  let keptHeapBytes = 0;
  let keptRssBytes = 0;
  let pendingRssRead: NodeJS.Timeout | undefined;
  new Gauge({
    name: "portal_heap_used_after_gc_bytes",
    help: "Heap de V8 en uso justo después de la última recolección completa (lo que el proceso retiene)",
    registers: [registry],
    collect() {
      this.set(keptHeapBytes);
    },
  });
  new Gauge({
    name: "portal_resident_memory_after_gc_bytes",
    help: "Memoria residente (RSS) del proceso leída 5 s después de la última recolección completa (lo que retiene)",
    registers: [registry],
    collect() {
      this.set(keptRssBytes);
    },
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      keptHeapBytes = getHeapStatistics().used_heap_size;
      // Collections closer together than the settle time are read once, after the first: a later one does not push
      // the read back (under collections every few seconds it would never happen).
      pendingRssRead ??= setTimeout(() => {
        pendingRssRead = undefined;
        keptRssBytes = process.memoryUsage.rss();
      }, rssSettleMs).unref();
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop: () => {
      observer.disconnect();
      clearTimeout(pendingRssRead);
    },
  };
}
