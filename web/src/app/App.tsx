import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { endSession } from "../lib/session.ts";
import { getPortalType } from "../lib/storage.ts";
import { onSessionExpired, queryClient, TRPCProvider, trpcClient } from "../lib/trpc.ts";
import { Overlays } from "./overlays/Overlays.tsx";
import { showToast } from "../lib/overlay-store.ts";
import { router } from "./routes.tsx";

const navigate = (to: string) => void router.navigate(to);

// Like a failed token validation (SPEC §4): storage cleared, back to the login of the user's area.
onSessionExpired(() => {
  const portalType = getPortalType();
  const loginPath = portalType === "0" || portalType === "1" ? "/admin-login" : "/login";
  endSession();
  showToast("Su sesión expiró. Ingrese nuevamente.", { priority: true });
  navigate(loginPath);
});

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
