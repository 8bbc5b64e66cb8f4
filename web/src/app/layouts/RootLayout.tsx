import { useCallback, useEffect } from "react";
import { Outlet, ScrollRestoration, useLocation, useNavigate } from "react-router";
import { showScreenTitle } from "../../lib/document-title.ts";
import { NavigationProvider } from "../../lib/navigation.tsx";

/**
 * Root of every route: the page and the browser's scroll restoration. The overlays live outside the router (App).
 * The pages shared with the public shell (login, recovery) navigate through lib/navigation.tsx: here, the router's.
 * Every move sets the document's title to the new screen's.
 */
export function RootLayout() {
  const routerNavigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => showScreenTitle(pathname, search), [pathname, search]);
  const navigate = useCallback((to: string) => void routerNavigate(to), [routerNavigate]);
  return (
    <NavigationProvider value={navigate}>
      <Outlet />
      <ScrollRestoration />
    </NavigationProvider>
  );
}
