import { Outlet, useLocation } from "react-router";
import { ActingForGate, VerComoBar } from "../../features/caregivers/VerComo.tsx";
import { usePortalType } from "../../lib/session.ts";
import { useActingFor } from "../../lib/acting-for.ts";
import { Header } from "./Header.tsx";
import { Sidebar } from "./Sidebar.tsx";

/**
 * The /dashboard and /admin frame: header on top, sidebar at the left, the page beside it. The skip link, first stop
 * of Tab, takes a keyboard user past the header and the menu to the page (WCAG 2.4.1). In the patient area, 'Ver
 * como:' on top of every page for caregivers (issue 30), and each page behind the link's parts.
 */
export function PortalLayout() {
  const patient = usePortalType() === "2";
  const { pathname } = useLocation();
  // The page remounts when the patient switches whom they act for ('Ver como:'), so it asks for its data again.
  const acting = useActingFor();
  return (
    <div className="portal">
      <a className="skip-link" href="#contenido">
        Saltar al contenido principal
      </a>
      <Header />
      <div className="portal__body">
        <Sidebar />
        <main className="portal__content" id="contenido" tabIndex={-1}>
          {patient ? (
            <>
              <VerComoBar />
              <ActingForGate key={acting?.id ?? "self"} pathname={pathname}>
                <Outlet />
              </ActingForGate>
            </>
          ) : (
            <Outlet />
          )}
        </main>
      </div>
    </div>
  );
}
