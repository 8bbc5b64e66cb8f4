// Changes to cached rows, announced inside this process: synchronously by the one writer of a table right after it
// writes (users.repository.ts), and again by every portal instance when PostgreSQL delivers the committed change on
// the portal_row_changes channel (trigger of migration row_change_notifications). Caches subscribe here.

export const rowChangesChannel = "portal_row_changes";

/**
 * "User" is any change to a user that lists may see (new, removed, role, the search text, clinics); "UserDetails" a
 * change to the rest of the row (phone, password, terms, second factor…), which drops the user's cached row but not
 * the lists' totals: under the load of issue 24, staff editing phone numbers made every user and bill search count
 * its matches again.
 */
export type CachedTable = "User" | "UserDetails" | "Privilege" | "Bill" | "Session";

/** `id` is the user's id for User, UserDetails, Privilege and Session, 0 for Bill (any bill); null means "anything may have changed" (e.g. the feed was interrupted). */
export type RowChangeListener = (table: CachedTable | null, id: number | null) => void;

const listeners = new Set<RowChangeListener>();

export function onRowChange(listener: RowChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceRowChange(table: CachedTable | null, id: number | null): void {
  for (const listener of listeners) listener(table, id);
}

/** Parses a notification payload ("User:12"); anything else is treated as "everything may have changed". */
export function announceNotification(payload: string | undefined): void {
  const match = /^(User|UserDetails|Privilege|Bill|Session):(\d{1,10})$/.exec(payload ?? "");
  if (!match) return announceRowChange(null, null);
  announceRowChange(match[1] as CachedTable, Number(match[2]));
}
