import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { observable } from "@trpc/server/observable";
import type { AppRouter } from "@server-router";
import { trackRequest } from "./overlay-store.ts";
import { getToken } from "./storage.ts";

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

let sessionExpired: (() => void) | undefined;

/** Registers what to do when the server says the session is over (token expired or voided by a password change). */
export function onSessionExpired(handler: () => void): void {
  sessionExpired = handler;
}

// A 401 on any call but the auth ones (where it means wrong credentials) ends the session wherever the user is.
const sessionLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          if (!op.path.startsWith("auth.") && getToken() && error.data?.code === "UNAUTHORIZED") sessionExpired?.();
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
      headers: (): Record<string, string> => {
        const token = getToken();
        return token ? { Authorization: `Bearer ${token}` } : {};
      },
    }),
  ],
});

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
});

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The server's Spanish message of a failed call, or the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof TRPCClientError && error.message ? error.message : fallback;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}
