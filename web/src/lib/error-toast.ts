import { type Mutation, type Query } from "@tanstack/react-query";
import { showToast } from "./overlay-store.ts";

// The one way a failed call shows its toast (issue 25): a query or mutation names its SPEC §8 text in `meta.errorToast`
// and the query client's caches show it once per failed call. Calls without it show nothing (their page handles it).

/**
 * The toast of a failed call: SPEC §8's text, or a function of the error (e.g. the server's own message); the function
 * answers null when the page itself tells that failure (one failure, one message).
 */
export type ErrorToast = string | ((error: unknown) => string | null);

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: { errorToast?: ErrorToast };
    mutationMeta: { errorToast?: ErrorToast };
  }
}

/** The caches' onError: shows the failed call's `meta.errorToast`, if it has one. */
export function showErrorToast(error: unknown, call: Query<unknown, unknown, unknown> | Mutation<unknown, unknown, unknown>): void {
  const toast = call.meta?.errorToast;
  const message = typeof toast === "function" ? toast(error) : toast;
  if (message !== undefined && message !== null) showToast(message);
}
