import { describe, expect, it } from "vitest";
import { judgedFromMs, replicaVerdicts, soakBudget, type MemorySample } from "../../scripts/soak/report.ts";

// The soak's verdict on memory (issue 46 §2). V8 lets its old generation grow by at least 8 MB between full collections
// and reserves pages as it goes, so the RSS sampled at any moment saws by that much; a trend fitted over the sawtooth
// says where the run stopped on it. The soak judges the RSS read after each full collection, which must still show a leak.

const minute = 60_000;
const totalMs = 30 * minute;

/** A replica's samples every 10 s: a sawtooth of `toothMb` every `periodMin` over a floor that rises `leakMbPerMin`. */
function replica(leakMbPerMin: number, toothMb = 8, periodMin = 10): MemorySample[] {
  return Array.from({ length: totalMs / 10_000 + 1 }, (_, i) => {
    const t = i * 10_000;
    const floor = 330 + (leakMbPerMin * t) / minute;
    const sinceCollection = (t / minute) % periodMin;
    const lastCollection = t - sinceCollection * minute;
    return {
      t,
      replica: "réplica 1",
      rssMb: floor + (toothMb * sinceCollection) / periodMin,
      keptRssMb: 330 + (leakMbPerMin * lastCollection) / minute,
      heapMb: 90,
      keptHeapMb: 79,
      codeSpaceMb: 9,
    };
  });
}

describe("the soak's memory verdict", () => {
  // With full collections every 10 min, a flat sawtooth's 20-min trend is +0.185 MB/min (every 7 min: −0.054).
  it("passes a replica whose RSS only saws with the collector, though the sampled RSS's trend misses", () => {
    const [verdict] = replicaVerdicts(replica(0), judgedFromMs(totalMs));
    expect(verdict!.rssSlope).toBeGreaterThan(soakBudget.slopeMbPerMin);
    expect(Math.abs(verdict!.keptRssSlope)).toBeLessThan(0.01);
  });

  it("still finds a leak under the sawtooth", () => {
    const [verdict] = replicaVerdicts(replica(0.3), judgedFromMs(totalMs));
    expect(verdict!.keptRssSlope).toBeGreaterThan(soakBudget.slopeMbPerMin);
    expect(verdict!.keptRssEndMb - verdict!.keptRssStartMb).toBeGreaterThan(4);
  });
});
