import { createHmac, timingSafeEqual } from "node:crypto";

// The flow cookie: what the browser that pressed 'Ingresar con ClaveÚnica' carries to the provider and back (state,
// nonce, PKCE verifier, the clinic's redirect URI and the page it was going to), signed with a key derived from
// JWT_SECRET so no one can write one, HttpOnly so no script can read it, host-only so another clinic's host never gets it.

export const FLOW_COOKIE = "claveunica_flujo";
/** The signed-in session handed from the callback to the page that stores it (POST /auth/claveunica/session). */
export const HANDOFF_COOKIE = "claveunica_sesion";

export interface ClaveUnicaFlow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  clinic: string;
  next: string;
  /** Epoch ms after which the flow is refused as expired. */
  expiresAt: number;
}

const keyFor = (secret: string, purpose: string) => createHmac("sha256", secret).update(`claveunica:${purpose}`).digest();

function mac(secret: string, purpose: string, body: string): string {
  return createHmac("sha256", keyFor(secret, purpose)).update(body).digest("base64url");
}

export function sealCookie(secret: string, purpose: string, value: unknown): string {
  const body = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${body}.${mac(secret, purpose, body)}`;
}

/** The cookie's value if its signature is right, else null. */
export function openCookie<T>(secret: string, purpose: string, cookie: string | undefined): T | null {
  if (!cookie) return null;
  const [body = "", signature = ""] = cookie.split(".");
  const expected = Buffer.from(mac(secret, purpose, body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
  } catch {
    return null;
  }
}

/**
 * The page the patient was going to, kept only when it is a path of this portal: one leading slash, no scheme, no
 * backslash or control character (so '//evil.example', '/\evil.example' and 'https://…' fall back to the dashboard).
 */
export function safeNextPath(next: unknown): string {
  const fallback = "/dashboard";
  if (typeof next !== "string" || next.length > 300) return fallback;
  const hasControl = [...next].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
  if (hasControl || !/^\/(?![/\\])[^\\\s]*$/.test(next)) return fallback;
  if (/^\/(api|trpc|claveunica)(\/|$|\?)/i.test(next)) return fallback;
  return next;
}
