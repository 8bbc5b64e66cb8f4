import type { ClaveUnicaSuggested } from "@contract/claveunica.ts";
import type { UserDto } from "@contract/users.dto.ts";

// The ClaveÚnica calls of the public pages (issue 43). REST only: the browser addresses /claveunica/ingresar and
// /claveunica/retorno are the server's, and the session the callback started comes in an HttpOnly cookie that only
// POST /auth/claveunica/session receives.

const API = "/api/rcr/v1/auth/claveunica";

export interface ClaveUnicaOptions {
  enabled: boolean;
  logoutUrl: string | null;
}

export interface ClaveUnicaSession {
  user: UserDto;
  accessToken: string;
  /** "verify": the patient has a second factor; the token reaches only the second step until the code is given. */
  secondFactor?: "verify";
  /** Claims for the profile's empty fields (only those), for the patient to confirm in 'Mi cuenta'. */
  suggested: ClaveUnicaSuggested;
  next: string;
}

/** Whether this clinic's portal offers 'Ingresar con ClaveÚnica'; not offered when the question fails. */
export async function fetchClaveUnicaOptions(clinic: string): Promise<ClaveUnicaOptions> {
  try {
    const response = await fetch(`${API}/options?clinic=${encodeURIComponent(clinic)}`);
    if (!response.ok) return { enabled: false, logoutUrl: null };
    const { payload } = (await response.json()) as { payload: ClaveUnicaOptions };
    return payload;
  } catch {
    return { enabled: false, logoutUrl: null };
  }
}

let pendingSession: Promise<ClaveUnicaSession | null> | null = null;

/**
 * Picks up, once, the session /claveunica/retorno started for this browser; null when there is none. The server's
 * cookie serves one call only, so a second render of the page shares the first call instead of asking again.
 */
export function takeClaveUnicaSession(): Promise<ClaveUnicaSession | null> {
  pendingSession ??= fetch(`${API}/session`, { method: "POST", credentials: "same-origin" })
    .then(async (response) => (response.ok ? ((await response.json()) as { payload: ClaveUnicaSession }).payload : null))
    .catch(() => null);
  return pendingSession;
}
