import { leastSquaresSlope } from "../load/measures.ts";

// The soak's judgement and what it writes (scripts/soak/run.ts): per replica, least-squares slopes of RSS and of the V8
// heap kept after each full collection (the heap sampled at any moment saws with the collector; its slope is reported
// beside, not judged) over the judged window (the last 20 minutes of 30, the last two thirds of a shorter run), and an SVG chart of both
// over the whole run.

export interface MemorySample {
  /** ms since the load started */
  t: number;
  replica: string;
  rssMb: number;
  /**
   * RSS summed from /proc/<pid>/smaps at the sample, NaN when a password hash was in progress in it: the hash's block
   * (19 MB, held for the 15–70 ms a login's hash takes here) read in one sample of 120 moves a 20-min slope by up to
   * 0.05 MB/min, half the budget, with nothing kept. The judged RSS slope leaves those samples out (and says how many).
   */
  rssNoHashMb?: number;
  /** V8 heap in use at the moment of the sample (saws with the collector). */
  heapMb: number;
  /** V8 heap in use right after the last full collection (portal_heap_used_after_gc_bytes): what is kept; NaN before one. */
  keptHeapMb: number;
  /** V8's code space in use (machine code the compiler made; nodejs_heap_space_size_used_bytes{space="code"}). */
  codeSpaceMb: number;
  /**
   * V8 heap reserved from the system (nodejs_heap_size_total_bytes) and memory held outside it for JavaScript objects
   * (buffers; nodejs_external_memory_bytes): with RSS, they tell a step of V8's own pages from native memory.
   */
  heapTotalMb?: number;
  externalMb?: number;
  /** The reserved size of each V8 heap space (nodejs_heap_space_size_total_bytes{space="…"}): which one took a step. */
  spaceTotalsMb?: Record<string, number>;
}

export interface ConnectionSample {
  t: number;
  connections: number;
}

export const soakBudget = { slopeMbPerMin: 0.1, eventLoopP99Ms: 50, connectionSlopePerMin: 0.1 };

/** The window judged: the last 20 minutes, or the last two thirds of a run shorter than 30 minutes. */
export function judgedFromMs(totalMs: number): number {
  const minute = 60_000;
  return totalMs >= 30 * minute ? totalMs - 20 * minute : totalMs / 3;
}

/** MB (or connections) per minute over the samples at or after `fromMs`. */
export function slopePerMinute<T extends { t: number }>(samples: T[], fromMs: number, value: (sample: T) => number): number {
  const points = samples.filter((sample) => sample.t >= fromMs && Number.isFinite(value(sample)));
  if (points.length < 3) return NaN;
  return leastSquaresSlope(
    points.map((point) => point.t / 60_000),
    points.map(value),
  );
}

export interface ReplicaVerdict {
  replica: string;
  rssStartMb: number;
  rssEndMb: number;
  /** Judged: over the samples without a password hash in progress when the run read them (rssNoHashMb), else all. */
  rssSlope: number;
  /** Over every sample, hashes in progress included (informative). */
  rssEverySampleSlope: number;
  /** Samples in the judged window, and those left out of rssSlope because a password hash was in progress. */
  rssSamples: number;
  rssLeftOut: number;
  heapStartMb: number;
  heapEndMb: number;
  heapSlope: number;
  keptHeapStartMb: number;
  keptHeapEndMb: number;
  /** The judged heap trend: of the heap kept after each full collection (the sampled heap's trend is reported beside). */
  keptHeapSlope: number;
  /** Informative: how much of a rise is V8's compiled code (it grows as functions turn hot, then flattens). */
  codeSpaceSlope: number;
}

export function replicaVerdicts(samples: MemorySample[], fromMs: number): ReplicaVerdict[] {
  return [...new Set(samples.map((sample) => sample.replica))].map((replica) => {
    const own = samples.filter((sample) => sample.replica === replica);
    const judged = own.filter((sample) => sample.t >= fromMs);
    const readWithoutHashes = own.some((sample) => sample.rssNoHashMb !== undefined);
    const judgedRss = (sample: MemorySample) => (readWithoutHashes ? (sample.rssNoHashMb ?? NaN) : sample.rssMb);
    return {
      replica,
      rssStartMb: judged[0]?.rssMb ?? NaN,
      rssEndMb: judged.at(-1)?.rssMb ?? NaN,
      rssSlope: slopePerMinute(own, fromMs, judgedRss),
      rssEverySampleSlope: slopePerMinute(own, fromMs, (sample) => sample.rssMb),
      rssSamples: judged.length,
      rssLeftOut: judged.filter((sample) => !Number.isFinite(judgedRss(sample))).length,
      heapStartMb: judged[0]?.heapMb ?? NaN,
      heapEndMb: judged.at(-1)?.heapMb ?? NaN,
      heapSlope: slopePerMinute(own, fromMs, (sample) => sample.heapMb),
      keptHeapStartMb: judged.find((sample) => Number.isFinite(sample.keptHeapMb))?.keptHeapMb ?? NaN,
      keptHeapEndMb: judged.findLast((sample) => Number.isFinite(sample.keptHeapMb))?.keptHeapMb ?? NaN,
      keptHeapSlope: slopePerMinute(own, fromMs, (sample) => sample.keptHeapMb),
      codeSpaceSlope: slopePerMinute(own, fromMs, (sample) => sample.codeSpaceMb),
    };
  });
}

/**
 * The RSS check: the judged slope within budget, and at most a tenth of the window's samples left out for a password
 * hash in progress (a hash's block that stayed would leave out every sample after it, and so fails here).
 */
export function rssWithinBudget(verdict: ReplicaVerdict): boolean {
  return verdict.rssSlope <= soakBudget.slopeMbPerMin && verdict.rssLeftOut <= verdict.rssSamples / 10;
}

const COLORS = ["#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad"];

/** RSS (solid) and heap (dashed) of each replica over the run, the judged window shaded. */
export function memoryChartSvg(samples: MemorySample[], fromMs: number, title: string): string {
  const width = 900;
  const height = 420;
  const left = 60;
  const right = 20;
  const top = 40;
  const bottom = 50;
  const maxT = Math.max(1, ...samples.map((sample) => sample.t));
  const values = samples.flatMap((sample) => [sample.rssMb, sample.heapMb]).filter(Number.isFinite);
  const maxY = Math.ceil((Math.max(1, ...values) * 1.1) / 50) * 50;
  const x = (t: number) => left + ((width - left - right) * t) / maxT;
  const y = (mb: number) => top + (height - top - bottom) * (1 - mb / maxY);
  const replicas = [...new Set(samples.map((sample) => sample.replica))];
  const lines = replicas.flatMap((replica, index) => {
    const own = samples.filter((sample) => sample.replica === replica);
    const color = COLORS[index % COLORS.length]!;
    const path = (value: (sample: MemorySample) => number) =>
      own
        .filter((sample) => Number.isFinite(value(sample)))
        .map((sample) => `${x(sample.t).toFixed(1)},${y(value(sample)).toFixed(1)}`)
        .join(" ");
    return [
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${path((sample) => sample.rssMb)}"/>`,
      `<polyline fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="6 4" points="${path((sample) => sample.heapMb)}"/>`,
      `<text x="${left + 10 + index * 260}" y="${height - 12}" fill="${color}" font-size="13">${replica}: RSS (línea) y heap V8 (trazos)</text>`,
    ];
  });
  const gridLines = Array.from({ length: 6 }, (_, i) => (maxY * i) / 5).map(
    (mb) =>
      `<line x1="${left}" x2="${width - right}" y1="${y(mb)}" y2="${y(mb)}" stroke="#ddd"/><text x="${left - 8}" y="${y(mb) + 4}" font-size="11" text-anchor="end">${Math.round(mb)}</text>`,
  );
  const minutes = Math.floor(maxT / 60_000);
  const step = Math.max(1, Math.ceil(minutes / 10));
  const ticks = Array.from({ length: Math.floor(minutes / step) + 1 }, (_, i) => i * step).map(
    (minute) => `<text x="${x(minute * 60_000)}" y="${height - bottom + 16}" font-size="11" text-anchor="middle">${minute}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<rect x="${x(fromMs)}" y="${top}" width="${x(maxT) - x(fromMs)}" height="${height - top - bottom}" fill="#f3f6fa"/>`,
    `<text x="${left}" y="24" font-size="15">${title}</text>`,
    ...gridLines,
    ...ticks,
    `<text x="14" y="${top + 10}" font-size="11">MB</text>`,
    `<text x="${width - right}" y="${height - bottom + 30}" font-size="11" text-anchor="end">minutos (zona sombreada: la que se juzga)</text>`,
    ...lines,
    `</svg>`,
    "",
  ].join("\n");
}
