import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { queryClient, TRPCProvider, trpcClient } from "../lib/trpc.ts";
import { Overlays } from "./overlays/Overlays.tsx";
import { router } from "./routes.tsx";

const navigate = (to: string) => void router.navigate(to);

/** Providers, the router and the global overlays (outside the router so they also show while a route loads). */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <RouterProvider router={router} />
        <Overlays navigate={navigate} />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
