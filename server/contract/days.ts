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
