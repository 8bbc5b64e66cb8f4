import { isValidRut, normalizeRut } from "../scheduling/rut.ts";

// Deterministic data for any RUT: the laboratory and imaging mocks derive every order and study from the RUT with a
// seeded PRNG, so the 24 seeded patients, the demo patient and any new account all get the same results every run.

/** The RUT body (digits before the hyphen) of a valid RUT in any format, or null. */
export function rutBody(rut: string): string | null {
  if (!isValidRut(rut)) return null;
  return normalizeRut(rut).split("-")[0] ?? null;
}

/** mulberry32: a small, well-distributed 32-bit PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function seedFrom(text: string): number {
  let hash = 2_166_136_261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619);
  return hash >>> 0;
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** The UTC calendar day `days` before `now`, at a morning hour, as a Date. */
export function daysBefore(now: Date, days: number, hour: number): Date {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, 0, 0));
  date.setUTCDate(date.getUTCDate() - days);
  return date;
}

/** YYYY-MM-DD of a Date (UTC). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
