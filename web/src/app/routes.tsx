import { createBrowserRouter, redirect, type RouteObject } from "react-router";
import { areaGuard, areaHome, revalidateOnPathChange, tokenGuard } from "./guards/guards.ts";
import { PortalLayout } from "./layouts/PortalLayout.tsx";
import { PageErrorBoundary, RootErrorBoundary } from "./routes/ErrorPages.tsx";
import NotFoundPage from "./routes/NotFoundPage.tsx";
import { RootLayout } from "./layouts/RootLayout.tsx";
import { adminPages, dashboardPages, type PageModule } from "./pages.ts";
import { prefetchLatestResults } from "../features/latest-results/api/latest-results.api.ts";
import { prefetchOwnPendingBills } from "../features/bills/api/bills.api.ts";
import { currentClinic } from "../lib/clinic.ts";
import { patientMenuHasBills } from "../lib/hidden-pages.ts";

// SPEC §2 route table; the pages themselves are in pages.ts.

const page =
  (load: () => PageModule): RouteObject["lazy"] =>
  async () => ({ Component: (await load()).default });

// Data a page shows first, asked for by a loader of its own: React Router runs it alongside the area's guard, so the
// question does not wait for the guard, the page's code and its first render (issue 26, 'Mis datos').
// 'Mis datos': its summaries of the newest results and, where the clinic's menu has hospital bills, of what is pending.
const prefetchers: Record<string, () => void> = {
  "account-settings": () => {
    prefetchLatestResults();
    if (patientMenuHasBills(currentClinic().key)) prefetchOwnPendingBills();
  },
};

const routesOf = (pages: Record<string, () => PageModule>): RouteObject[] =>
  Object.entries(pages).map(([path, load]) => {
    const prefetch = prefetchers[path];
    return { path, lazy: page(load), ...(prefetch && { loader: () => (prefetch(), null) }) };
  });

function area(name: "dashboard" | "admin", pages: RouteObject[]): RouteObject {
  return {
    path: name,
    loader: areaGuard(name),
    shouldRevalidate: revalidateOnPathChange,
    Component: PortalLayout,
    children: [
      {
        ErrorBoundary: PageErrorBoundary,
        children: [{ index: true, loader: () => redirect(areaHome[name]) }, ...pages],
      },
    ],
  };
}

export const routes: RouteObject[] = [
  {
    path: "/",
    Component: RootLayout,
    ErrorBoundary: RootErrorBoundary,
    HydrateFallback: () => null,
    children: [
      { index: true, loader: () => redirect("/login") },
      { path: "login", lazy: page(() => import("../features/auth/PatientLoginPage.tsx")) },
      { path: "admin-login", lazy: page(() => import("../features/auth/StaffLoginPage.tsx")) },
      { path: "accept-tyc", loader: tokenGuard, lazy: page(() => import("../features/auth/AcceptTermsPage.tsx")) },
      { path: "claveunica/listo", lazy: page(() => import("../features/auth/ClaveUnicaLandingPage.tsx")) },
      { path: "recover-password", lazy: page(() => import("../features/auth/RecoverPasswordPage.tsx")) },
      area("dashboard", routesOf(dashboardPages)),
      area("admin", routesOf(adminPages)),
      { path: "*", Component: NotFoundPage },
    ],
  },
];

/** The browser router, created when the app first renders (the public shell may load this module earlier). */
export const createRouter = () => createBrowserRouter(routes);
