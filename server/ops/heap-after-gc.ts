import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";

// The V8 heap in use, and the process's resident memory, right after the last full (mark-sweep-compact) collection:
// what the process keeps, without the garbage it has not collected yet. nodejs_heap_size_used_bytes and
// process_resident_memory_bytes, read at any moment, saw up and down with the collector (the RSS by 20–40 MB from one
// minute to the next under the soak's load), and a trend fitted over a sawtooth moves with where the run happened to
// stop; these move only when what is kept grows (issue 46 §2, the soak judges them). 0 until the first full collection.

export function trackHeapAfterGc(registry: Registry): { stop(): void } {
  let keptHeapBytes = 0;
  let keptRssBytes = 0;
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
    help: "Memoria residente (RSS) del proceso justo después de la última recolección completa",
    registers: [registry],
    collect() {
      this.set(keptRssBytes);
    },
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        keptHeapBytes = getHeapStatistics().used_heap_size;
        keptRssBytes = process.memoryUsage.rss();
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { stop: () => observer.disconnect() };
}
