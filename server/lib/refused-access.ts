import type { AppDeps } from "../deps.ts";
import { throttleStore } from "./login-throttle.ts";

// Issue 42: a patient account that keeps asking for data that is not its own — X-Actuar-Por naming patients it holds no
// live link for, bill, file or payment ids walked one after another — is slowed down. Each refusal counts against the
// account (a missing id as much as another patient's: they answer alike, and the limit must not tell them apart); past
// REFUSED_ACCESS_MAX_PER_ACCOUNT within REFUSED_ACCESS_WINDOW_MINUTES, every further refusal answers 429 for a whole
// window. The counters share the login throttle's store (the database, or Redis), so every instance counts together.

/** The 429 says how long to wait, in whole minutes. */
export function refusedAccessMessageFor(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  const wait = minutes === 1 ? "Espere un minuto" : `Espere ${minutes} minutos`;
  return `Hizo demasiadas solicitudes de datos a los que su cuenta no tiene acceso. ${wait} e intente nuevamente.`;
}

/** Within the limit; or past it, for how long more, and whether this is the refusal that crossed it. */
type RefusalCount = { limited: false } | { limited: true; crossed: boolean; waitMs: number };

/**
 * Counts one refused reach of the account. The refusal that crosses the limit starts a wait of one whole window and
 * logs a warning (once per window, with the account's id); every refusal during the wait is limited too.
 */
export async function countRefusedAccess(deps: AppDeps, userId: number): Promise<RefusalCount> {
  const { config } = deps;
  const windowMs = config.REFUSED_ACCESS_WINDOW_MINUTES * 60_000;
  // The refusal one past the limit is the one that starts the wait, of a whole window (no doubling: the store's back-off
  // with its base and maximum both one window).
  const rule = { limit: config.REFUSED_ACCESS_MAX_PER_ACCOUNT + 1, windowMs, backoffBaseMs: windowMs, backoffMaxMs: windowMs };
  const { counted, counter } = await throttleStore(deps).record(`refused:${userId}`, rule);
  const waitingUntil = counter.lockedUntil && counter.lockedUntil.getTime() > Date.now() ? counter.lockedUntil : null;
  if (counted && !waitingUntil) return { limited: false };
  if (counted) {
    deps.logWarn?.(
      { userId, refusals: counter.failures, windowMinutes: config.REFUSED_ACCESS_WINDOW_MINUTES },
      "access: an account passed its refused-access limit",
    );
    return { limited: true, crossed: true, waitMs: windowMs };
  }
  return { limited: true, crossed: false, waitMs: waitingUntil ? waitingUntil.getTime() - Date.now() : windowMs };
}
