// The portal's one date module (issue 25): today in Chile, and every day and time the screens show. Days travel as
// YYYY-MM-DD; what the screens show is dd-mm-aaaa on every screen (SPEC §9, ux-writing, issue 33); dd/mm/aaaa is only
// the results providers' query format.

const CHILE_TIME_ZONE = "America/Santiago";

// "sv-SE" writes ISO-like parts ("2026-11-23 05:40"), easy to read back in any order.
const chileDay = new Intl.DateTimeFormat("sv-SE", { timeZone: CHILE_TIME_ZONE });
const chileDayAndMinute = new Intl.DateTimeFormat("sv-SE", {
  timeZone: CHILE_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});
// The seconds of an instant (the same in every zone Chile has used; read through the formatter all the same).
const chileSecond = new Intl.DateTimeFormat("en-US", { second: "numeric", timeZone: CHILE_TIME_ZONE });

const pad = (value: number) => String(value).padStart(2, "0");

/** Today's date in Santiago (YYYY-MM-DD), whatever the device's time zone. */
export function chileToday(now: Date = new Date()): string {
  return chileDay.format(now);
}

/** The same calendar day one year earlier (YYYY-MM-DD); 29 February gives 28 February. */
function yearBefore(isoDay: string): string {
  const [year, month, day] = isoDay.split("-").map(Number) as [number, number, number];
  const lastDayOfMonth = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
  return `${year - 1}-${pad(month)}-${pad(Math.min(day, lastDayOfMonth))}`;
}

/** SPEC §9: the results' default range, 12 months back to today in Chile. */
export function lastTwelveMonths(now: Date = new Date()): { from: string; to: string } {
  const today = chileToday(now);
  return { from: yearBefore(today), to: today };
}

/** YYYY-MM-DD → dd-mm-aaaa, the day as every screen shows it. */
export function formatDay(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${day}-${month}-${year}`;
}

/** YYYY-MM-DD → dd/mm/aaaa (the results providers' query format; never shown). */
export function formatDaySlashed(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${day}/${month}/${year}`;
}

/** A stored day (midnight UTC, as bills keep it) as dd-mm-aaaa, read in UTC so it never slides to the day before. */
export function formatUtcDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
}

/** An instant as 'dd-mm-aaaa HH:MM' in Chile's time (24 h). */
export function formatChileDateTime(iso: string): string {
  const [day, time] = chileDayAndMinute.format(new Date(iso)).split(" ") as [string, string];
  const [year, month, dayOfMonth] = day.split("-");
  return `${dayOfMonth}-${month}-${year} ${time}`;
}

/** An instant as 'dd-mm-aaaa HH:MM:SS' in Chile's time (the audit trail, to the second). */
export function formatChileDateTimeSeconds(iso: string): string {
  const date = new Date(iso);
  const seconds = pad(Number(chileSecond.format(date)) % 60);
  return `${formatChileDateTime(iso)}:${seconds}`;
}
