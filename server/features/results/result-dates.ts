import { chileToday } from "../../lib/chile-time.ts";
import { AppError } from "../../lib/errors.ts";

// Date ranges of the results screens (SPEC §7: dd/mm/yyyy; the imaging call also takes yyyy-mm-dd). Days are Chile's.

let lastDefault = { from: "", to: "" };

/** SPEC §9 default range: 12 months back to today (or to `now`'s day). */
export function defaultRange(now?: Date): { from: string; to: string } {
  const to = chileToday(now);
  if (to === lastDefault.to) return { ...lastDefault };
  const [year, month, day] = to.split("-").map(Number) as [number, number, number];
  const back = new Date(Date.UTC(year - 1, month - 1, day));
  // 29 February a year back is 1 March.
  if (back.getUTCMonth() !== month - 1) back.setUTCDate(0);
  lastDefault = { from: back.toISOString().slice(0, 10), to };
  return { ...lastDefault };
}

/** A real calendar day in dd/mm/yyyy (or yyyy-mm-dd when allowed) → YYYY-MM-DD; null when it is not one. */
export function parseDay(value: string, allowIso = false): string | null {
  const trimmed = value.trim();
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  const iso = allowIso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed) : null;
  if (!dmy && !iso) return null;
  const [year, month, day] = dmy ? [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])] : [Number(iso![1]), Number(iso![2]), Number(iso![3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
}

export const rangeMessages = {
  badFrom: "La fecha de inicio no es válida (use dd/mm/aaaa)",
  badTo: "La fecha de término no es válida (use dd/mm/aaaa)",
  fromAfterTo: "La fecha de inicio no puede ser posterior a la fecha de término",
} as const;

/** Validates a range: each day real, from not after to; a missing end takes the default range's. */
export function resolveRange(raw: { from?: string; to?: string }, options: { allowIso?: boolean; now?: Date } = {}) {
  const from = raw.from ? parseDay(raw.from, options.allowIso) : defaultRange(options.now).from;
  if (!from) throw new AppError("BAD_REQUEST", rangeMessages.badFrom);
  const to = raw.to ? parseDay(raw.to, options.allowIso) : defaultRange(options.now).to;
  if (!to) throw new AppError("BAD_REQUEST", rangeMessages.badTo);
  if (from > to) throw new AppError("BAD_REQUEST", rangeMessages.fromAfterTo);
  return { from, to };
}
