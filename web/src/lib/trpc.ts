import { QueryClient } from "@tanstack/react-query";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@server-router";

// React Query over the one tRPC client (trpc-client.ts), for the signed-in app.

export { errorCode, errorMessage, onSessionExpired, trpcClient } from "./trpc-client.ts";

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
});

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
