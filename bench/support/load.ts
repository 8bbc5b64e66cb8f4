import autocannon from "autocannon";

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx, and connection errors or timeouts: a run with any is not a measurement. */
  failures: number;
  /** What those were: status codes with their counts, errors, timeouts. */
  failureKinds: string[];
  /** CPU the measured server used during the run (not its warm-up), when `serverCpu` was given and could tell. */
  serverCpuMicros?: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** The measured server's CPU time so far, in µs (see RunningServer.cpuMicros). */
  serverCpu?: () => number | undefined;
}

/** One autocannon run (keep-alive connections on loopback); its own short warm-up first so JIT and pools are hot. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  await run({ ...options, seconds: 1 });
  // autocannon stops at its deadline with requests still in flight, and the server finishes them: let them end before
  // the measured run, or both overlap (twice the connections for a moment; 8 logins at once from one address and one
  // RUT pass the login throttle's 5 per pair, and one answered 429 in the login measurement).
  await new Promise((resolve) => setTimeout(resolve, 250));
  const before = options.serverCpu?.();
  const result = await run(options);
  const after = options.serverCpu?.();
  return before === undefined || after === undefined ? result : { ...result, serverCpuMicros: after - before };
}

async function run({ url, method = "GET", headers, body, connections, seconds }: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds, timeout: 10 });
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    failureKinds: [
      ...Object.entries(result.statusCodeStats ?? {})
        .filter(([status]) => !status.startsWith("2"))
        .map(([status, { count }]) => `${count} × ${status}`),
      ...(result.errors ? [`${result.errors} errores`] : []),
      ...(result.timeouts ? [`${result.timeouts} sin respuesta`] : []),
    ],
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
    failureKinds: [...a.failureKinds, ...b.failureKinds],
    ...(a.serverCpuMicros !== undefined && b.serverCpuMicros !== undefined
      ? { serverCpuMicros: a.serverCpuMicros + b.serverCpuMicros }
      : {}),
  };
}

/** The middle value of an odd number of values. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each figure (req/s, p50, p99, CPU per call) the median of the measurements', the requests and failures summed. */
export function medianLoad(loads: LoadResult[]): LoadResult {
  const requests = loads.reduce((sum, load) => sum + load.requests, 0);
  const cpuPerCall = loads.every((load) => load.serverCpuMicros !== undefined)
    ? median(loads.map((load) => load.serverCpuMicros! / load.requests))
    : undefined;
  return {
    reqPerSec: median(loads.map((load) => load.reqPerSec)),
    p50Ms: median(loads.map((load) => load.p50Ms)),
    p99Ms: median(loads.map((load) => load.p99Ms)),
    requests,
    failures: loads.reduce((sum, load) => sum + load.failures, 0),
    failureKinds: loads.flatMap((load) => load.failureKinds),
    ...(cpuPerCall === undefined ? {} : { serverCpuMicros: cpuPerCall * requests }),
  };
}
