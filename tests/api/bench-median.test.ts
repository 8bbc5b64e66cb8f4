import { describe, expect, it } from "vitest";
import { medianLoad, type LoadResult } from "../../bench/support/load.ts";

// npm run bench judges a call that missed its budget on the median of three measurements (bench/throughput.bench.ts):
// one noisy reading must not decide it either way.
const load = (reqPerSec: number, p99Ms: number, cpuMicrosPerCall: number, requests = 1000): LoadResult => ({
  reqPerSec,
  p50Ms: p99Ms / 4,
  p99Ms,
  requests,
  failures: 0,
  failureKinds: [],
  serverCpuMicros: cpuMicrosPerCall * requests,
});

describe("the bench's median of three measurements", () => {
  it("takes each figure's middle value, so one outlier (a 151 ms p99 among 30s) does not decide the row", () => {
    const judged = medianLoad([load(4500, 30, 170), load(3300, 151, 257), load(4600, 32, 160)]);
    expect(judged.reqPerSec).toBe(4500);
    expect(judged.p99Ms).toBe(32);
    expect(judged.serverCpuMicros! / judged.requests).toBe(170);
  });

  it("still misses when two of the three miss", () => {
    const judged = medianLoad([load(1400, 90, 500), load(1500, 85, 480), load(2300, 50, 300)]);
    expect(judged.reqPerSec).toBe(1500);
    expect(judged.p99Ms).toBe(85);
  });

  it("keeps every request and failure counted, and leaves the CPU out when a measurement lacks it", () => {
    const { serverCpuMicros: _omitted, ...withoutCpu } = load(4000, 40, 200, 500);
    const judged = medianLoad([
      load(4000, 40, 200, 1000),
      { ...withoutCpu, failures: 2, failureKinds: ["2 × 503"] },
      load(4100, 41, 210, 1500),
    ]);
    expect(judged.requests).toBe(3000);
    expect(judged.failures).toBe(2);
    expect(judged.failureKinds).toEqual(["2 × 503"]);
    expect(judged.serverCpuMicros).toBeUndefined();
  });
});
