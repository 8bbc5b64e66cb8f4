import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect } from "react";
import { RouterProvider } from "react-router/dom";
import { endSession } from "../lib/session.ts";
import { getPortalType } from "../lib/storage.ts";
import { onSessionExpired, queryClient, TRPCProvider, trpcClient } from "../lib/trpc.ts";
import { Overlays } from "./overlays/Overlays.tsx";
import { closeModal, showToast } from "../lib/overlay-store.ts";
import { sessionEndedElsewhereMessage } from "@contract/session.ts";
import { createRouter } from "./routes.tsx";

// Created on the first render, not on import: the public shell starts loading this module while a login is being
// checked, and the router must start from the address the user lands on.
let router: ReturnType<typeof createRouter> | undefined;
const getRouter = () => (router ??= createRouter());
const navigate = (to: string) => void getRouter().navigate(to);

// Like a failed token validation (SPEC §4): storage cleared, back to the login of the user's area, saying why: ended
// from another device, or expired (issue 45 §3). A dialog of the page left behind (e.g. a first-login welcome) closes.
onSessionExpired((serverMessage) => {
  const portalType = getPortalType();
  const loginPath = portalType === "0" || portalType === "1" ? "/admin-login" : "/login";
  endSession();
  closeModal(null);
  showToast(serverMessage === sessionEndedElsewhereMessage ? serverMessage : "Su sesión expiró. Ingrese nuevamente.", { priority: true });
  navigate(loginPath);
});

/**
 * The signed-in app: providers, the router and the global overlays (outside the router so they also show while a
 * route loads). Loaded on demand by the public shell (web/src/public/PublicShell.tsx). `goTo`: where a public page
 * sent the user (e.g. after the login); the router goes there like any navigation of its own, so the address
 * changes only once the route's guard let the user in.
 */
export default function App({ goTo }: { goTo?: string }) {
  useEffect(() => {
    if (goTo) navigate(goTo);
  }, [goTo]);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <RouterProvider router={getRouter()} />
        <Overlays navigate={navigate} />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
