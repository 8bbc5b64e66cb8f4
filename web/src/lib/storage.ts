import AES from "crypto-js/aes";
import Utf8 from "crypto-js/enc-utf8";
import type { UserDto } from "@contract/users.dto.ts";

// SPEC §3 local storage: `user` (JSON) and `token` in localStorage; `portalType` and `roleType` encrypted with a
// fixed secret embedded in the product, and a session value holding both in sessionStorage. The encryption is
// obfuscation only — the server decides every access.

const OBFUSCATION_SECRET = "portal-pacientes-rcr";
export const storageKeys = { user: "user", token: "token", portalType: "portalType", roleType: "roleType", session: "session" } as const;

const encrypt = (value: string) => AES.encrypt(value, OBFUSCATION_SECRET).toString();
function decrypt(value: string | null): string | null {
  if (!value) return null;
  try {
    return AES.decrypt(value, OBFUSCATION_SECRET).toString(Utf8) || null;
  } catch {
    return null;
  }
}

export function saveSession(user: UserDto, token: string, portalType: string): void {
  localStorage.setItem(storageKeys.user, JSON.stringify(user));
  localStorage.setItem(storageKeys.token, token);
  localStorage.setItem(storageKeys.portalType, encrypt(portalType));
  localStorage.setItem(storageKeys.roleType, encrypt(String(user.roleType)));
  sessionStorage.setItem(storageKeys.session, encrypt(JSON.stringify({ roleType: String(user.roleType), portalType })));
}

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

export function getPortalType(): string | null {
  return decrypt(localStorage.getItem(storageKeys.portalType));
}

export function getRoleType(): string | null {
  return decrypt(localStorage.getItem(storageKeys.roleType));
}

/** Clears local and session storage (logout, refused terms, invalid token). */
export function clearSession(): void {
  localStorage.clear();
  sessionStorage.clear();
}
