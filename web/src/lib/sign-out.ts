import { trpcClient } from "./trpc-client.ts";
import { getToken } from "./plain-storage.ts";
import { endSession } from "./session.ts";
import { queryClient } from "./trpc.ts";

/** How long 'Cerrar sesión' waits for the server before clearing the browser's session anyway. */
const LOGOUT_WAIT_MS = 3_000;

/**
 * 'Cerrar sesión' (and a patient refusing the terms): asks the server to end the session, so the token stops working
 * everywhere (issue 23), then clears the browser's storage and caches. A server that does not answer, or a session that
 * had already ended, does not keep the person signed in here.
 */
export async function signOut(): Promise<void> {
  if (getToken()) {
    const ended = trpcClient.auth.logout.mutate(undefined, { context: { sessionCheck: false } }).catch(() => undefined);
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
  }
  endSession();
  queryClient.clear();
}
