import { useSyncExternalStore } from "react";
import type { UserDto } from "@contract/users.dto.ts";
import { clearSession, getPortalType, getStoredUser, getToken, saveSession, setStoredUser } from "./storage.ts";

// The stored user as React state: screens that edit the user (account settings, terms) call setSessionUser so the
// header, sidebar and guards see the change at once. The guards themselves read storage on every navigation.

const listeners = new Set<() => void>();
let version = 0;
let snapshot: { version: number; user: UserDto | null } = { version: -1, user: null };

function notify() {
  version++;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = () => notify();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function getSnapshot() {
  if (snapshot.version !== version) snapshot = { version, user: getStoredUser() };
  return snapshot.user;
}

/**
 * Replaces the stored user (e.g. with the server's answer after an edit) and re-renders every reader. Without a
 * session (ended by a 401 while a late answer was still on its way) there is no user to store.
 */
export function setSessionUser(user: UserDto): void {
  if (!getToken()) return;
  setStoredUser(user);
  notify();
}

/** Merges fields into the stored user (e.g. `{ hasChangedPassword: true }` or `{ dateTyc }`). */
export function updateSessionUser(patch: Partial<UserDto>): void {
  const user = getStoredUser();
  if (user) setSessionUser({ ...user, ...patch });
}

/** Stores a new login (user, token, portal type and role) and re-renders every reader. */
export function startSession(user: UserDto, token: string, portalType: string): void {
  saveSession(user, token, portalType);
  notify();
}

/** Clears local and session storage (logout, refused terms, invalid token). */
export function endSession(): void {
  clearSession();
  notify();
}

/** The stored user and its setter; re-renders when either changes. */
export function useSessionUser(): {
  user: UserDto | null;
  setUser: (user: UserDto) => void;
  updateUser: (patch: Partial<UserDto>) => void;
} {
  const user = useSyncExternalStore(subscribe, getSnapshot);
  return { user, setUser: setSessionUser, updateUser: updateSessionUser };
}

/** The stored portal type ('0', '1', '2' or null). */
export function usePortalType(): string | null {
  useSyncExternalStore(subscribe, () => version);
  return getPortalType();
}
