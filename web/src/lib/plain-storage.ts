import type { UserDto } from "@contract/users.dto.ts";

// The plain (unencrypted) part of SPEC §3's local storage: the token and the user. Kept apart from storage.ts so the
// public pages read the token without loading crypto-js, which only the encrypted values need (issue 14).

export const storageKeys = { user: "user", token: "token", portalType: "portalType", roleType: "roleType", session: "session" } as const;

export function getToken(): string | null {
  return localStorage.getItem(storageKeys.token);
}

export function setToken(token: string): void {
  localStorage.setItem(storageKeys.token, token);
}

export function getStoredUser(): UserDto | null {
  try {
    const raw = localStorage.getItem(storageKeys.user);
    return raw ? (JSON.parse(raw) as UserDto) : null;
  } catch {
    return null;
  }
}

export function setStoredUser(user: UserDto): void {
  localStorage.setItem(storageKeys.user, JSON.stringify(user));
}

/** Clears local and session storage (logout, refused terms, invalid token). */
export function clearSession(): void {
  localStorage.clear();
  sessionStorage.clear();
}
