import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";

// The V8 heap in use right after the last full (mark-sweep-compact) collection: what the process keeps, without the
// garbage it has not collected yet. nodejs_heap_size_used_bytes, read at any moment, saws up and down with the
// collector, and a trend fitted over a sawtooth moves with where the run happened to stop; this one moves only when
// what is kept grows (issue 46 §2, the soak judges it). 0 until the first full collection.

export function trackHeapAfterGc(registry: Registry): { stop(): void } {
  let keptBytes = 0;
  new Gauge({
    name: "portal_heap_used_after_gc_bytes",
    help: "Heap de V8 en uso justo después de la última recolección completa (lo que el proceso retiene)",
    registers: [registry],
    collect() {
      this.set(keptBytes);
    },
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) keptBytes = getHeapStatistics().used_heap_size;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { stop: () => observer.disconnect() };
}
