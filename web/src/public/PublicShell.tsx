import { useCallback, useEffect, useState } from "react";
import { Overlays } from "../app/overlays/Overlays.tsx";
import PatientLoginPage from "../features/auth/PatientLoginPage.tsx";
import { showScreenTitle } from "../lib/document-title.ts";
import { NavigationProvider } from "../lib/navigation.tsx";
import { alreadyLoaded, useLoaded, type ComponentLoader } from "./use-loaded.ts";

// What the first load of the portal runs (issue 14: ≤ 100 KB of JavaScript for the login page). The pages that need
// no session (login, staff login, password recovery) render here on plain React: no router, no React Query, no zod
// classic, no crypto-js. Any other address, and every move to one, loads the signed-in app (app/App.tsx: router,
// guards, data layer), which from then on owns the whole page — the public pages included, as its own routes.

const loadApp: ComponentLoader = () => import("../app/App.tsx");

const publicPages: Record<string, ComponentLoader> = {
  "/login": alreadyLoaded(PatientLoginPage),
  "/admin-login": () => import("../features/auth/StaffLoginPage.tsx"),
  "/recover-password": () => import("../features/auth/RecoverPasswordPage.tsx"),
};

/** The public page shown at `pathname` ("/" is the patient login, as in the router), or null for the app's pages. */
export function publicPagePath(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return "/login";
  return path in publicPages ? path : null;
}

function currentPage(): string | null {
  const page = publicPagePath(window.location.pathname);
  // Like the router's redirect of "/": the address bar shows /login.
  if (page && window.location.pathname === "/") window.history.replaceState(window.history.state, "", `${page}${window.location.search}`);
  return page;
}

/** A public page, or the signed-in app once the user is anywhere else. */
export function PublicShell() {
  const [page, setPage] = useState(currentPage);
  // Where a public page sent the user in the app (the app's router makes that move, guards included).
  const [appTarget, setAppTarget] = useState<string>();
  const inApp = page === null || appTarget !== undefined;

  const navigate = useCallback((to: string) => {
    if (publicPagePath(new URL(to, window.location.href).pathname) === null) {
      setAppTarget(to);
      return;
    }
    window.history.pushState(null, "", to);
    setPage(currentPage());
    window.scrollTo(0, 0);
  }, []);

  useEffect(() => {
    if (inApp) return;
    const onPopState = () => setPage(currentPage());
    // The user is about to sign in: the app's code loads while they type, not after the login answers.
    const preload = () => void loadApp();
    window.addEventListener("popstate", onPopState);
    window.addEventListener("focusin", preload, { once: true });
    return () => {
      window.removeEventListener("popstate", onPopState);
      window.removeEventListener("focusin", preload);
    };
  }, [inApp]);

  useEffect(() => {
    if (!inApp && page) showScreenTitle(page);
  }, [inApp, page]);

  const { component: Shown, failed } = useLoaded(inApp ? loadApp : publicPages[page!]);
  if (failed) return <LoadFailed />;
  if (inApp) return Shown ? <Shown goTo={appTarget} /> : null;
  return (
    <NavigationProvider value={navigate}>
      {Shown && <Shown key={page} />}
      <Overlays navigate={navigate} />
    </NavigationProvider>
  );
}

/** When the portal's code could not be downloaded (connection lost, or a release replaced it meanwhile). */
function LoadFailed() {
  return (
    <main className="error-page-shell">
      <div className="error-page" role="alert">
        <h1 className="error-page__title">No se pudo cargar el portal</h1>
        <p>Revise su conexión e intente nuevamente.</p>
        <div className="error-page__actions">
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            Reintentar
          </button>
        </div>
      </div>
    </main>
  );
}
