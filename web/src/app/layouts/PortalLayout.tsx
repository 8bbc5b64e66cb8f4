import { Outlet } from "react-router";
import { Header } from "./Header.tsx";
import { Sidebar } from "./Sidebar.tsx";

/**
 * The /dashboard and /admin frame: header on top, sidebar at the left, the page beside it. The skip link, first stop
 * of Tab, takes a keyboard user past the header and the menu to the page (WCAG 2.4.1).
 */
export function PortalLayout() {
  return (
    <div className="portal">
      <a className="skip-link" href="#contenido">
        Saltar al contenido principal
      </a>
      <Header />
      <div className="portal__body">
        <Sidebar />
        <main className="portal__content" id="contenido" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
