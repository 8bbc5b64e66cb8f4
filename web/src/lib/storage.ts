import AES from "crypto-js/aes";
import Utf8 from "crypto-js/enc-utf8";
import type { UserDto } from "@contract/users.dto.ts";
import { storageKeys } from "./plain-storage.ts";

// SPEC §3 local storage: `user` (JSON) and `token` in localStorage (plain-storage.ts); `portalType` and `roleType`
// encrypted with a fixed secret embedded in the product, and a session value holding both in sessionStorage. The
// encryption is obfuscation only — the server decides every access. The public pages import this module only when
// they write a session (after a successful login), so crypto-js is not part of their first load.

export { clearSession, getStoredUser, getToken, setStoredUser, setToken } from "./plain-storage.ts";

const OBFUSCATION_SECRET = "portal-pacientes-rcr";

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

export function getPortalType(): string | null {
  return decrypt(localStorage.getItem(storageKeys.portalType));
}
