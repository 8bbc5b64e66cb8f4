// Calendar days (YYYY-MM-DD) as the server stores them: PostgreSQL `date` columns travel through Prisma as the Date at
// that day's UTC midnight. Shared by the validations and every service that writes a day (bills, users, account).

/** The Date Prisma stores for a YYYY-MM-DD day (its UTC midnight); invalid (NaN) for a malformed day. */
export function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * The YYYY-MM-DD day a stored day stands for (the inverse of dayToDate): read at UTC, never in a time zone, where
 * Santiago's midnight would make it the day before (issue 45).
 */
export function calendarDayOf(stored: Date): string {
  return stored.toISOString().slice(0, 10);
}

/** Whether the text is a day that exists on the calendar, "YYYY-MM-DD" ("2027-02-31" is not: it would roll to March). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = dayToDate(day);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The same day `years` later ("2028-02-29" + 1 → "2029-03-01", as a 29 February birthday is counted). */
export function addYears(day: string, years: number): string {
  const date = dayToDate(day);
  return new Date(Date.UTC(date.getUTCFullYear() + years, date.getUTCMonth(), date.getUTCDate())).toISOString().slice(0, 10);
}
