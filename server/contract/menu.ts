import type { ClinicKey } from "./clinics.ts";

// Sidebar menus of SPEC §2 as data (SPEC §3 Menu item). Shared with the web app; icons are names the web app maps to
// its own inline SVG components.

export type MenuIcon = "calendar" | "imaging" | "laboratory" | "bills" | "account" | "users" | "audit" | "requests";

export interface MenuItem {
  title: string;
  icon: MenuIcon;
  url: string;
  /** True for the item of the current page. */
  selected: boolean;
  /** True when the item is offered on the Maitenes portal too (its reduced patient menu). */
  isMaitenes: boolean;
  /** True when the item is not shown in this menu. */
  hide: boolean;
}

type MenuEntry = Omit<MenuItem, "selected" | "hide"> & {
  /** Other pages that belong to this item (its create and edit screens), so it stays selected there. */
  relatedUrls?: string[];
  /** Offered to admins only (portal type '0'), never to executives. */
  adminOnly?: boolean;
};

const patientMenu: MenuEntry[] = [
  { title: "Agendamiento", icon: "calendar", url: "/dashboard/scheduling", isMaitenes: true },
  // Not in SPEC §2: the patient's appointments in the clinics' agenda (issue 44), on every clinic.
  { title: "Mis citas", icon: "calendar", url: "/dashboard/my-appointments", isMaitenes: true },
  { title: "Imagenología", icon: "imaging", url: "/dashboard/imaging", isMaitenes: true },
  { title: "Laboratorio", icon: "laboratory", url: "/dashboard/laboratory", isMaitenes: true },
  // The Maitenes centres are outpatient sites without hospitalisation, so they issue no hospital bills.
  { title: "Cuentas hospitalarias", icon: "bills", url: "/dashboard/my-bills", isMaitenes: false },
  { title: "Mis datos", icon: "account", url: "/dashboard/account-settings", isMaitenes: true },
];

const staffMenu: MenuEntry[] = [
  {
    title: "Usuarios y Pacientes",
    icon: "users",
    url: "/admin/admin-users",
    isMaitenes: true,
    relatedUrls: ["/admin/create-user", "/admin/edit-user", "/admin/patient-accesses"],
  },
  { title: "Cuentas hospitalarias", icon: "bills", url: "/admin/admin-bills", isMaitenes: true, relatedUrls: ["/admin/edit-bills"] },
  // Not in SPEC §2: the patients' requests about their data (issue 28, Law 21.719), for admins and executives.
  { title: "Solicitudes de pacientes", icon: "requests", url: "/admin/rights-requests", isMaitenes: true },
  // Not in SPEC §2: the read-only audit trail of the production-readiness work, for admins.
  { title: "Auditoría", icon: "audit", url: "/admin/audit", isMaitenes: true, adminOnly: true },
  // Not in SPEC §2: the staff's own account — sessions, 'Cerrar las demás sesiones', second factor, password (issue 42).
  {
    title: "Mi cuenta",
    icon: "account",
    url: "/admin/account",
    isMaitenes: true,
    relatedUrls: ["/admin/change-password", "/admin/second-factor"],
  },
];

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path);

/**
 * The sidebar menu of a portal type ('0'/'1' staff, '2' patient; anything else gets no menu) on a clinic's portal.
 * Items hidden on that clinic keep `hide: true`; `selected` marks the item whose page is `currentPath`.
 */
export function menuFor(portalType: string | null | undefined, clinicKey: ClinicKey, currentPath = ""): MenuItem[] {
  const entries = portalType === "0" || portalType === "1" ? staffMenu : portalType === "2" ? patientMenu : [];
  const path = trimSlash(currentPath);
  return entries
    .filter((entry) => !entry.adminOnly || portalType === "0")
    .map(({ relatedUrls = [], adminOnly: _adminOnly, ...entry }) => ({
      ...entry,
      selected: [entry.url, ...relatedUrls].some((url) => path === url || path.startsWith(`${url}/`)),
      hide: portalType === "2" && clinicKey === "maitenes" && !entry.isMaitenes,
    }));
}
