import type { ComponentType } from "react";
import { createBrowserRouter, redirect, type RouteObject } from "react-router";
import { areaGuard, areaHome, revalidateOnPathChange, tokenGuard } from "./guards/guards.ts";
import { PortalLayout } from "./layouts/PortalLayout.tsx";
import { PageErrorBoundary, RootErrorBoundary } from "./routes/ErrorPages.tsx";
import NotFoundPage from "./routes/NotFoundPage.tsx";
import { RootLayout } from "./layouts/RootLayout.tsx";

// SPEC §2 route table. Every page is its own lazily loaded module whose default export is the page component, so
// feature teams replace a page by editing its file only.

type PageModule = Promise<{ default: ComponentType }>;
const page =
  (load: () => PageModule): RouteObject["lazy"] =>
  async () => ({ Component: (await load()).default });

const dashboardPages: RouteObject[] = [
  { path: "scheduling", lazy: page(() => import("../features/scheduling/SchedulingPage.tsx")) },
  { path: "account-settings", lazy: page(() => import("../features/account/AccountSettingsPage.tsx")) },
  { path: "my-bills", lazy: page(() => import("./routes/MyBillsRoute.tsx")) },
  { path: "laboratory", lazy: page(() => import("../features/laboratory/LaboratoryPage.tsx")) },
  { path: "imaging", lazy: page(() => import("../features/imaging/ImagingPage.tsx")) },
];

const adminPages: RouteObject[] = [
  { path: "admin-users", lazy: page(() => import("../features/users/AdminUsersPage.tsx")) },
  { path: "create-user", lazy: page(() => import("../features/users/CreateUserPage.tsx")) },
  { path: "edit-user", lazy: page(() => import("../features/users/EditUserPage.tsx")) },
  { path: "admin-bills", lazy: page(() => import("../features/bills/AdminBillsPage.tsx")) },
  { path: "edit-bills", lazy: page(() => import("../features/bills/EditBillPage.tsx")) },
  { path: "change-password", lazy: page(() => import("../features/account/StaffPasswordChangePage.tsx")) },
  { path: "audit", lazy: page(() => import("../features/audit/AuditPage.tsx")) },
];

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
      { path: "recover-password", lazy: page(() => import("../features/auth/RecoverPasswordPage.tsx")) },
      area("dashboard", dashboardPages),
      area("admin", adminPages),
      { path: "*", Component: NotFoundPage },
    ],
  },
];

/** The browser router, created when the app first renders (the public shell may load this module earlier). */
export const createRouter = () => createBrowserRouter(routes);
