import { useCallback } from "react";
import { Outlet, ScrollRestoration, useNavigate } from "react-router";
import { NavigationProvider } from "../../lib/navigation.tsx";

/**
 * Root of every route: the page and the browser's scroll restoration. The overlays live outside the router (App).
 * The pages shared with the public shell (login, recovery) navigate through lib/navigation.tsx: here, the router's.
 */
export function RootLayout() {
  const routerNavigate = useNavigate();
  const navigate = useCallback((to: string) => void routerNavigate(to), [routerNavigate]);
  return (
    <NavigationProvider value={navigate}>
      <Outlet />
      <ScrollRestoration />
    </NavigationProvider>
  );
}
