import { announce } from "./announcer.ts";
import { currentClinic } from "./clinic.ts";

// The browser tab's title says the screen and the clinic, '<Pantalla> · <Clínica>' (issue 29, WCAG 2.4.2): a screen
// reader announces it on every move, and a patient with several tabs open tells them apart.

const screenTitles: Record<string, string> = {
  "/login": "Ingreso de pacientes",
  "/admin-login": "Ingreso de Administrativos",
  "/recover-password": "Recuperar contraseña",
  "/claveunica/listo": "Ingresando con ClaveÚnica",
  "/accept-tyc": "Términos y condiciones",
  "/dashboard/scheduling": "Agendamiento",
  "/dashboard/my-appointments": "Mis citas",
  "/dashboard/account-settings": "Mi cuenta",
  "/dashboard/my-bills": "Cuentas hospitalarias",
  "/dashboard/laboratory": "Exámenes de laboratorio",
  "/dashboard/imaging": "Exámenes de imagenología",
  "/admin/admin-users": "Usuarios y Pacientes",
  "/admin/create-user": "Crear cuenta de usuario",
  "/admin/edit-user": "Modificación de usuario",
  "/admin/admin-bills": "Cuentas hospitalarias",
  "/admin/change-password": "Cambiar contraseña",
  "/admin/second-factor": "Verificación en dos pasos",
  "/admin/account": "Mi cuenta",
  "/admin/audit": "Auditoría",
  "/admin/rights-requests": "Solicitudes de pacientes",
  "/admin/patient-accesses": "Accesos a los datos del paciente",
};

/** The screen's name at an address (path and query), as its heading says it. */
export function screenTitleOf(pathname: string, search = ""): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/admin/edit-bills") {
    return new URLSearchParams(search).has("accountId") ? "Modificar cuenta hospitalaria" : "Cargar cuenta a Paciente";
  }
  if (path === "/" || path === "/dashboard" || path === "/admin") return "Portal Pacientes";
  return screenTitles[path] ?? "Página no encontrada";
}

/** The screen last shown; none yet on a page just loaded, whose load the screen reader tells by itself. */
let shownScreen: string | undefined;

/**
 * Sets the document's title for the screen at that address on this clinic's portal. A move to another screen without
 * a page load (a link of the menu, the login) is also said to a screen reader by the screen's name: Orca says nothing
 * of a new title, and after a login the focused button is gone, so it said the old title or a status of the page.
 */
export function showScreenTitle(pathname: string, search = ""): void {
  const screen = screenTitleOf(pathname, search);
  document.title = `${screen} · ${currentClinic().title}`;
  const address = `${pathname.replace(/\/+$/, "")}?${search}`;
  if (shownScreen !== undefined && shownScreen !== address) announce(screen);
  shownScreen = address;
}
