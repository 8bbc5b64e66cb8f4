import { createTRPCClient, httpLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import type { AppRouter } from "@server-router";
import { trackRequest } from "./overlay-store.ts";
import { getToken } from "./plain-storage.ts";
import { getActingFor } from "./acting-for.ts";
import { ACTING_FOR_HEADER } from "@contract/caregivers.parts.ts";

// The tRPC client without React Query: the public pages (login, password recovery) call the server through it
// alone, so their first load carries neither React Query nor the tRPC React bindings (issue 14). lib/trpc.ts adds
// React Query on top of this same client for the signed-in app.

/** Shows the blocking spinner for every request, as SPEC §2 asks. */
const spinnerLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) => {
      const end = trackRequest();
      const subscription = next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          end();
          observer.error(error);
        },
        complete: () => {
          end();
          observer.complete();
        },
      });
      return () => {
        end();
        subscription.unsubscribe();
      };
    });

let sessionExpired: ((serverMessage: string) => void) | undefined;

/**
 * Registers what to do when the server says the session is over (token expired, voided by a password change, or ended
 * from another device): the handler gets the server's message, which says which.
 */
export function onSessionExpired(handler: (serverMessage: string) => void): void {
  sessionExpired = handler;
}

// A 401 on any call but the auth ones (where it means wrong credentials) ends the session wherever the user is; a
// call made with `context: { sessionCheck: false }` leaves it to its caller.
const sessionLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          const checked = op.context.sessionCheck !== false;
          if (checked && !op.path.startsWith("auth.") && getToken() && error.data?.code === "UNAUTHORIZED") sessionExpired?.(error.message);
          observer.error(error);
        },
        complete: () => observer.complete(),
      }),
    );

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    spinnerLink,
    sessionLink,
    httpLink({
      url: "/trpc",
      // A call may carry its own bearer (`context: { bearer }`): the login's second step sends the password-only token,
      // which is never stored as the session's.
      // 'Ver como:' (issue 30): the dependent the caregiver acts for, on every call; routes without a caregiver part
      // ignore it, and the server checks the link on each request.
      headers: ({ op }): Record<string, string> => {
        const token = typeof op.context.bearer === "string" ? op.context.bearer : getToken();
        // A call made with `context: { ownAccount: true }` (the summary of 'Mi cuenta', issue 45 §2) is always the
        // patient's own, whoever they are viewing as.
        const actingFor = op.context.ownAccount === true ? null : getActingFor();
        return {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(actingFor ? { [ACTING_FOR_HEADER]: String(actingFor.id) } : {}),
        };
      },
    }),
  ],
});

/** The server's Spanish message of a failed call, or the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof TRPCClientError && error.message ? error.message : fallback;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

/** The HTTP status of a failed call, or undefined when the server was not reached (no answer, connection lost). */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
}
