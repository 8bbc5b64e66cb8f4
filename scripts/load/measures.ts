// What a load or soak run measures of the portal's instances (scripts/load/run.ts, scripts/soak/run.ts): the event
// loop's p99 from the portal's delay histogram, and least-squares slopes of a series (RSS, heap, connections).

const REQUEST_BUCKET = /^portal_http_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/gm;

/**
 * The cumulative counts of the portal's request-duration histogram per route and method ("GET /orders"), leaving out
 * its scrapes and health checks (/metrics, /readyz, /healthz): upper bound (s) → requests at or under it.
 */
export function requestBuckets(text: string): Map<string, Map<number, number>> {
  const routes = new Map<string, Map<number, number>>();
  for (const [, labels, count] of text.matchAll(REQUEST_BUCKET)) {
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels!)?.[1];
    const [route, method, le] = [label("route"), label("method"), label("le")];
    if (!route || !le || /^\/(metrics|readyz|healthz)$/.test(route)) continue;
    const key = `${method} ${route}`;
    const buckets = routes.get(key) ?? new Map<number, number>();
    const bound = le === "+Inf" ? Infinity : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(count));
    routes.set(key, buckets);
  }
  return routes;
}

/** Two readings' histograms added up (the same histogram of two instances). */
export function addBuckets(a: Map<number, number>, b: Map<number, number>): Map<number, number> {
  const sum = new Map(a);
  for (const [bound, count] of b) sum.set(bound, (sum.get(bound) ?? 0) + count);
  return sum;
}

/** The cumulative counts of one unlabelled histogram in a /metrics text: upper bound (s) → observations at or under it. */
export function histogramBuckets(text: string, name: string): Map<number, number> {
  const buckets = new Map<number, number>();
  for (const [, le, count] of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, "gm")))
    buckets.set(le === "+Inf" ? Infinity : Number(le), Number(count));
  return buckets;
}

/** The cumulative counts of the portal's event-loop delay histogram: upper bound (s) → ticks at or under it. */
export const loopBuckets = (text: string) => histogramBuckets(text, "portal_event_loop_delay_seconds");

/**
 * The p99 between two readings of a cumulative histogram (the event-loop delay's, or the requests' durations), in ms:
 * as Prometheus's histogram_quantile, linear within the bucket that holds it; also the share of observations later than
 * `budgetMs` (a bucket's bound: 50 ms of the loop's), which decides it exactly.
 */
export function histogramP99Between(first: Map<number, number>, last: Map<number, number>, budgetMs: number) {
  const bounds = [...last.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (last.get(bound) ?? 0) - (first.get(bound) ?? 0));
  const total = counts.at(-1) ?? 0;
  const withinBudget = counts[bounds.indexOf(budgetMs / 1000)] ?? 0;
  const rank = 0.99 * total;
  let p99Ms = NaN;
  for (let i = 0; i < bounds.length; i++) {
    if (counts[i]! < rank) continue;
    const lower = i === 0 ? 0 : bounds[i - 1]!;
    const below = i === 0 ? 0 : counts[i - 1]!;
    const upper = Number.isFinite(bounds[i]!) ? bounds[i]! : lower;
    p99Ms = (lower + ((upper - lower) * (rank - below)) / Math.max(1, counts[i]! - below)) * 1000;
    break;
  }
  return { ticks: total, lateShare: total ? (total - withinBudget) / total : 0, p99Ms };
}

/** Least-squares slope of `ys` over `xs` (per unit of x); 0 with fewer than two distinct xs. */
export function leastSquaresSlope(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

/** Least-squares slope of RSS over the last `minutes`, in MB per minute, per instance. */
export function rssSlopes(samples: Array<{ at: number; port: number; rssMb: number }>, minutes: number): Record<string, number> {
  const slopes: Record<string, number> = {};
  const end = samples.reduce((last, s) => Math.max(last, s.at), Number.NEGATIVE_INFINITY);
  for (const port of new Set(samples.map((s) => s.port))) {
    const points = samples.filter((s) => s.port === port && s.at >= end - minutes * 60_000 && Number.isFinite(s.rssMb));
    if (points.length < 3) continue;
    const xs = points.map((p) => (p.at - points[0]!.at) / 60_000);
    const ys = points.map((p) => p.rssMb);
    slopes[`:${port}`] = leastSquaresSlope(xs, ys);
  }
  return slopes;
}
