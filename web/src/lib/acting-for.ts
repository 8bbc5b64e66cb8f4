import { useSyncExternalStore } from "react";

// 'Ver como:' (issue 30): the dependent a caregiver is acting for in this tab, or null for themself. Kept in
// sessionStorage (cleared with the session on logout) and sent with every call as the X-Actuar-Por header
// (trpc-client.ts); the server checks the caregiver link on each request, so this is only the choice, never a grant.

export interface ActingFor {
  id: number;
  name: string;
  rut: string;
}

const KEY = "actuarPor";
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ActingFor | null } = { raw: null, value: null };

export function getActingFor(): ActingFor | null {
  const raw = sessionStorage.getItem(KEY);
  if (raw !== cached.raw) {
    let value: ActingFor | null = null;
    try {
      value = raw ? (JSON.parse(raw) as ActingFor) : null;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  return cached.value;
}

/** Acts for `person` from now on (null: the signed-in patient themself). The caller refetches the screen's data. */
export function setActingFor(person: ActingFor | null): void {
  if (person) sessionStorage.setItem(KEY, JSON.stringify(person));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The dependent this tab acts for, re-rendering when it changes. */
export function useActingFor(): ActingFor | null {
  return useSyncExternalStore(subscribe, getActingFor);
}
