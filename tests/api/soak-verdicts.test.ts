import { describe, expect, it } from "vitest";
import { replicaVerdicts, rssWithinBudget, type MemorySample } from "../../scripts/soak/report.ts";

// The soak judges each replica's RSS by its least-squares slope over the last 20 minutes (scripts/soak/report.ts). A
// login's password hash holds a 19 MB block for some tens of milliseconds; a sample that reads it is not memory kept.

const minute = 60_000;
const fromMs = 10 * minute;

/** A replica flat at 270 MB, sampled every 10 s for 30 min; `hashAt` lists the minutes whose sample read a hash. */
function flatReplica(hashAt: (minutes: number) => boolean, readsSmaps = true): MemorySample[] {
  return Array.from({ length: 181 }, (_, index) => {
    const t = index * 10_000;
    const hashing = hashAt(t / minute);
    return {
      t,
      replica: "réplica 1",
      rssMb: 270 + (hashing ? 19 : 0),
      ...(readsSmaps ? { rssNoHashMb: hashing ? NaN : 270 } : {}),
      heapMb: 90,
      keptHeapMb: 87,
      codeSpaceMb: 4,
    };
  });
}

describe("the soak's RSS verdict", () => {
  it("leaves out the samples read while a password hash was in progress, and reports the slope over every sample beside", () => {
    const [verdict] = replicaVerdicts(
      flatReplica((minutes) => minutes === 29.5),
      fromMs,
    );
    expect(verdict!.rssSlope).toBeCloseTo(0, 6);
    expect(verdict!.rssEverySampleSlope).toBeGreaterThan(0.04);
    expect(verdict!).toMatchObject({ rssSamples: 121, rssLeftOut: 1 });
    expect(rssWithinBudget(verdict!)).toBe(true);
  });

  it("judges every sample of a run that did not read smaps, so the same hash counts against it", () => {
    const [verdict] = replicaVerdicts(
      flatReplica((minutes) => minutes >= 29.5, false),
      fromMs,
    );
    expect(verdict!.rssSlope).toBe(verdict!.rssEverySampleSlope);
    expect(verdict!.rssLeftOut).toBe(0);
    expect(rssWithinBudget(verdict!)).toBe(false);
  });

  it("fails a replica whose hash block stayed, though the samples left show no slope", () => {
    const [verdict] = replicaVerdicts(
      flatReplica((minutes) => minutes >= 25),
      fromMs,
    );
    expect(verdict!.rssSlope).toBeCloseTo(0, 6);
    expect(verdict!.rssLeftOut).toBe(31);
    expect(rssWithinBudget(verdict!)).toBe(false);
  });
});
