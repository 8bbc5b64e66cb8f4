// SPEC §2 'Mi cuenta' / §9: the terms acceptance date is shown "DD-MM-YYYY HH:mm:ss at +60 minutes".
//
// Decision: the +60 minutes are added to the UTC time, not to the browser's local time. The spec gives only the
// offset, and its other dates (bills) are "DD-MM-YYYY in UTC", so UTC+60 min is the reading that shows the same text
// to every viewer whatever the time zone of their device.

/** Minutes added to the UTC acceptance time before it is shown. */
export const TERMS_DATE_OFFSET_MINUTES = 60;

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * The stored terms acceptance date (an ISO timestamp, as in the stored user's `dateTyc`) as "DD-MM-YYYY HH:mm:ss",
 * shifted +60 minutes from UTC. Null when there is no date or it cannot be read.
 */
export function formatTermsDate(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  const time = (value instanceof Date ? value : new Date(value)).getTime();
  if (Number.isNaN(time)) return null;
  const shifted = new Date(time + TERMS_DATE_OFFSET_MINUTES * 60_000);
  const day = `${pad(shifted.getUTCDate())}-${pad(shifted.getUTCMonth() + 1)}-${shifted.getUTCFullYear()}`;
  const clock = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
  return `${day} ${clock}`;
}
