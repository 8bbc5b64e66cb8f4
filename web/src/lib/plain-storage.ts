import type { ClaveUnicaSuggested } from "@contract/claveunica.ts";
import type { UserDto } from "@contract/users.dto.ts";

// The plain (unencrypted) part of SPEC §3's local storage: the token and the user. Kept apart from storage.ts so the
// public pages read the token without loading crypto-js, which only the encrypted values need (issue 14).

export const storageKeys = {
  user: "user",
  token: "token",
  portalType: "portalType",
  roleType: "roleType",
  session: "session",
  signInMethod: "signInMethod",
  claveUnicaSuggested: "claveUnicaSuggested",
} as const;

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

/**
 * How this browser's session was opened (issue 43): "claveunica" when it came through ClaveÚnica, else "password". The
 * server knows it too and decides access by it (no temporary-password change is asked); the web uses it to show the
 * same journey and to offer ClaveÚnica's logout after 'Cerrar sesión'. Cleared with the session.
 */
export function getSignInMethod(): "password" | "claveunica" {
  return localStorage.getItem(storageKeys.signInMethod) === "claveunica" ? "claveunica" : "password";
}

export function setSignInMethod(method: "password" | "claveunica"): void {
  localStorage.setItem(storageKeys.signInMethod, method);
}

/** ClaveÚnica's data for the profile's empty fields (issue 43), kept until the patient saves the profile or signs out. */
export function getClaveUnicaSuggested(): ClaveUnicaSuggested {
  try {
    const raw = localStorage.getItem(storageKeys.claveUnicaSuggested);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== "object") return {};
    return Object.fromEntries(Object.entries(value).filter(([, text]) => typeof text === "string")) as ClaveUnicaSuggested;
  } catch {
    return {};
  }
}

export function setClaveUnicaSuggested(suggested: ClaveUnicaSuggested | null): void {
  if (suggested && Object.keys(suggested).length > 0) localStorage.setItem(storageKeys.claveUnicaSuggested, JSON.stringify(suggested));
  else localStorage.removeItem(storageKeys.claveUnicaSuggested);
}

/** Clears local and session storage (logout, refused terms, invalid token). */
export function clearSession(): void {
  localStorage.clear();
  sessionStorage.clear();
}
