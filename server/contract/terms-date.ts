// The terms acceptance date as 'Mis datos' shows it (SPEC §2, §9), shared by the screen and the data export's
// resumen.pdf so both say the same (issue 45 §6).

const pad = (value: number) => String(value).padStart(2, "0");

/** SPEC §9: minutes added to the UTC terms acceptance time before it is shown. */
const TERMS_DATE_OFFSET_MINUTES = 60;

/**
 * SPEC §2 'Mi cuenta' / §9: the terms acceptance date as "DD-MM-YYYY HH:mm:ss" at +60 minutes. The minutes are added
 * to the UTC time, not to the device's: the spec gives only the offset and its other dates (bills) are "in UTC", so
 * every viewer reads the same text. Null when there is no date or it cannot be read.
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
