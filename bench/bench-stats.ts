// Shared by bench/run.ts and the bench/*.bench.ts modules (kept apart so a bench never imports the runner).

export interface BenchResult {
  bench: string;
  /** What was measured (one row of the table). */
  name: string;
  /** Timed samples (latency benches) or requests answered (throughput benches). */
  samples: number;
  p50Ms: number;
  p95Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  /** Throughput benches: requests per second, and their ratio to the bare Fastify route measured in the same run. */
  reqPerSec?: number;
  ratioToCeiling?: number;
  /** The budget in words ("p95 ≤ 150 ms", "≥ 25 % del techo; p99 ≤ 25 ms"), and whether it was met. */
  budget?: string;
  withinBudget?: boolean;
  /** Why a budget was missed (one line per missed part). */
  misses?: string[];
  note?: string;
}

export type BenchFunction = () => Promise<BenchResult[]>;

/** p-th percentile (0–100) of the samples, nearest-rank. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** One latency row from raw timings, with an optional p95 budget in milliseconds. */
export function summarize(bench: string, name: string, samples: number[], budgetP95Ms?: number, note?: string): BenchResult {
  const p95Ms = percentile(samples, 95);
  const withinBudget = budgetP95Ms === undefined ? undefined : p95Ms <= budgetP95Ms;
  return {
    bench,
    name,
    samples: samples.length,
    p50Ms: percentile(samples, 50),
    p95Ms,
    maxMs: samples.reduce((max, sample) => Math.max(max, sample), Number.NEGATIVE_INFINITY),
    budget: budgetP95Ms === undefined ? undefined : `p95 ≤ ${budgetP95Ms} ms`,
    withinBudget,
    misses: withinBudget === false ? [`p95 ${p95Ms.toFixed(1)} ms > ${budgetP95Ms} ms`] : undefined,
    note,
  };
}
