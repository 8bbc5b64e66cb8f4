import autocannon from "autocannon";

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx, and connection errors or timeouts: a run with any is not a measurement. */
  failures: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

/** One autocannon run (keep-alive connections on loopback); its own short warm-up first so JIT and pools are hot. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  await run({ ...options, seconds: 1 });
  return run(options);
}

async function run({ url, method = "GET", headers, body, connections, seconds }: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds, timeout: 10 });
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** Two runs of the same load as one: mean throughput, the worse p50 and p99 (so a budget is never met by averaging). */
export function combine(a: LoadResult, b: LoadResult): LoadResult {
  return {
    reqPerSec: (a.reqPerSec + b.reqPerSec) / 2,
    p50Ms: Math.max(a.p50Ms, b.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    requests: a.requests + b.requests,
    failures: a.failures + b.failures,
  };
}
