import type { ComponentType } from "react";

// SPEC §2's signed-in pages, each its own lazily loaded module whose default export is the page component, so feature
// teams replace a page by editing its file only. Kept apart from the router (routes.tsx) so that the public shell can
// start downloading the page the user lands on while the app's own code still downloads (issue 14: one round trip
// less before a signed-in page shows).

export type PageModule = Promise<{ default: ComponentType }>;

export const dashboardPages = {
  scheduling: () => import("../features/scheduling/SchedulingPage.tsx"),
  "my-appointments": () => import("../features/appointments/AppointmentsPage.tsx"),
  "account-settings": () => import("./routes/AccountSettingsRoute.tsx"),
  "my-bills": () => import("./routes/MyBillsRoute.tsx"),
  laboratory: () => import("../features/laboratory/LaboratoryPage.tsx"),
  imaging: () => import("../features/imaging/ImagingPage.tsx"),
} satisfies Record<string, () => PageModule>;

export const adminPages = {
  "admin-users": () => import("../features/users/AdminUsersPage.tsx"),
  "create-user": () => import("../features/users/CreateUserPage.tsx"),
  "edit-user": () => import("./routes/EditUserRoute.tsx"),
  "admin-bills": () => import("../features/bills/AdminBillsPage.tsx"),
  "edit-bills": () => import("./routes/EditBillRoute.tsx"),
  "change-password": () => import("../features/account/StaffPasswordChangePage.tsx"),
  "second-factor": () => import("../features/account/StaffSecondFactorPage.tsx"),
  account: () => import("../features/account/StaffAccountPage.tsx"),
  audit: () => import("../features/audit/AuditPage.tsx"),
  "rights-requests": () => import("../features/data-rights/StaffRequestsPage.tsx"),
  "patient-accesses": () => import("../features/data-rights/PatientAccessesPage.tsx"),
} satisfies Record<string, () => PageModule>;

const areas: Record<string, Record<string, () => PageModule>> = { dashboard: dashboardPages, admin: adminPages };

/**
 * Starts downloading the signed-in page at `pathname` (e.g. /dashboard/my-bills), if it is one; the router's lazy
 * route then finds the module already on its way. A failure is left for the router to meet and show.
 */
export function preloadPageAt(pathname: string): void {
  const [, area, page] = pathname.split("/");
  const load = area && page ? areas[area]?.[page] : undefined;
  load?.().catch(() => {});
}
