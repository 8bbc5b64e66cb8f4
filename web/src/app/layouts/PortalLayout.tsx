import { Outlet } from "react-router";
import { Header } from "./Header.tsx";
import { Sidebar } from "./Sidebar.tsx";

/** The /dashboard and /admin frame: header on top, sidebar at the left, the page beside it. */
export function PortalLayout() {
  return (
    <div className="portal">
      <Header />
      <div className="portal__body">
        <Sidebar />
        <main className="portal__content" id="contenido">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
