import { useState } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { menuFor } from "@contract/menu.ts";
import { ChevronLeftIcon, HelpIcon, LogoutIcon, MenuIcon, SurveyIcon } from "../../components/ui/icons.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { usePortalType } from "../../lib/session.ts";
import { getSignInMethod } from "../../lib/plain-storage.ts";
import { signOut } from "../../lib/sign-out.ts";
import { breakpoints, useMediaQuery } from "../../lib/use-media-query.ts";
import { menuIcons } from "./menu-icons.tsx";

/** Role menu, help and survey links and 'Cerrar sesión'; at 1000 px or less it collapses to icons with a toggle. */
export function Sidebar() {
  const clinic = currentClinic();
  const portalType = usePortalType();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const narrow = useMediaQuery(breakpoints.sidebarCollapsed);
  // Expanded on a narrow screen until the user moves to another page.
  const [expandedAt, setExpandedAt] = useState<string | null>(null);
  const expanded = narrow && expandedAt === pathname;
  const setExpanded = (value: boolean) => setExpandedAt(value ? pathname : null);
  const collapsed = narrow && !expanded;
  const items = menuFor(portalType, clinic.key, pathname).filter((item) => !item.hide);

  async function logout() {
    const staff = portalType === "0" || portalType === "1";
    // Read before the session's storage is cleared: a session that came through ClaveÚnica is offered its logout too.
    const viaClaveUnica = getSignInMethod() === "claveunica";
    await signOut();
    void navigate(staff ? "/admin-login" : viaClaveUnica ? "/login?salida=claveunica" : "/");
  }

  const label = (text: string) => <span className="sidebar__label">{text}</span>;
  return (
    <>
      {narrow && expanded ? <div className="sidebar-backdrop" onClick={() => setExpanded(false)} aria-hidden="true" /> : null}
      <aside
        className={`sidebar${collapsed ? " sidebar--collapsed" : ""}${narrow && expanded ? " sidebar--floating" : ""}`}
        data-testid="sidebar"
      >
        {narrow ? (
          <button
            type="button"
            className="sidebar__toggle"
            onClick={() => setExpanded(!expanded)}
            aria-expanded={expanded}
            aria-label={expanded ? "Contraer menú" : "Expandir menú"}
          >
            {expanded ? <ChevronLeftIcon /> : <MenuIcon />}
          </button>
        ) : null}
        <nav className="sidebar__nav" aria-label="Menú principal">
          {items.map((item) => {
            const Icon = menuIcons[item.icon];
            return (
              <NavLink
                key={item.url}
                to={item.url}
                className={`sidebar__item${item.selected ? " sidebar__item--selected" : ""}`}
                aria-current={item.selected ? "page" : undefined}
                title={collapsed ? item.title : undefined}
                aria-label={collapsed ? item.title : undefined}
              >
                <Icon className="sidebar__icon" />
                {label(item.title)}
              </NavLink>
            );
          })}
        </nav>
        <div className="sidebar__footer">
          <a
            className="sidebar__item"
            href={clinic.helpFormUrl}
            target="_blank"
            rel="noopener noreferrer"
            title={collapsed ? "Ayuda" : undefined}
            aria-label={collapsed ? "Ayuda" : undefined}
          >
            <HelpIcon className="sidebar__icon" />
            {label("Ayuda")}
          </a>
          <a
            className="sidebar__item"
            href={clinic.surveyFormUrl}
            target="_blank"
            rel="noopener noreferrer"
            title={collapsed ? "Encuesta" : undefined}
            aria-label={collapsed ? "Encuesta" : undefined}
          >
            <SurveyIcon className="sidebar__icon" />
            {label("Encuesta")}
          </a>
          <button
            type="button"
            className="sidebar__item sidebar__logout"
            onClick={() => void logout()}
            title={collapsed ? "Cerrar sesión" : undefined}
            aria-label={collapsed ? "Cerrar sesión" : undefined}
          >
            <LogoutIcon className="sidebar__icon" />
            {label("Cerrar sesión")}
          </button>
        </div>
      </aside>
    </>
  );
}
