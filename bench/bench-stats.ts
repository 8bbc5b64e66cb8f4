// Shared by bench/run.ts and the bench/*.bench.ts modules (kept apart so a bench never imports the runner).

export interface BenchResult {
  bench: string;
  /** What was measured (one row of the table). */
  name: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** p95 budget in milliseconds; rows without one are informative only. */
  budgetP95Ms?: number;
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

/** One table row from raw timings. */
export function summarize(bench: string, name: string, samples: number[], budgetP95Ms?: number, note?: string): BenchResult {
  return {
    bench,
    name,
    samples: samples.length,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    maxMs: Math.max(...samples),
    budgetP95Ms,
    note,
  };
}
