import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCContext, createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@server-router";
import { showErrorToast } from "./error-toast.ts";

// React Query over the one tRPC client (trpc-client.ts), for the signed-in app.

import { trpcClient } from "./trpc-client.ts";

export { errorCode, errorMessage, onSessionExpired, trpcClient } from "./trpc-client.ts";

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => showErrorToast(error, query) }),
  mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => showErrorToast(error, mutation) }),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
});

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The same query options and keys as useTRPC(), for code outside components (the route guards). */
export const trpcOptions = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
