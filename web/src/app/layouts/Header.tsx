import { useState } from "react";
import { currentClinic } from "../../lib/clinic.ts";
import { useSessionUser } from "../../lib/session.ts";
import { useActingFor } from "../../lib/acting-for.ts";

/**
 * Top bar: clinic logo, 'PORTAL PACIENTES', the clinic's title and the signed-in user's name, or the name of the
 * dependent a caregiver is acting for.
 */
export function Header() {
  const clinic = currentClinic();
  const { user } = useSessionUser();
  // 'Ver como:' (issue 30): whose data the patient area shows, in the header at all times (also on small screens).
  const acting = useActingFor();
  const [logoFailed, setLogoFailed] = useState(false);
  const displayName = user?.name?.trim() || user?.rut || "";
  // The avatar shows the first letter of a name; a user known only by RUT gets a neutral mark, not a digit.
  const initial = /^\p{L}/u.test(displayName) ? displayName.charAt(0).toUpperCase() : "•";
  return (
    <header className={acting ? "app-header app-header--acting" : "app-header"}>
      <div className="app-header__brand">
        {logoFailed ? null : (
          <img
            className="app-header__logo"
            src={clinic.logo}
            alt={clinic.title}
            // The logos' own size (180 × 48): the header keeps the logo's room before it loads (no layout shift).
            width={180}
            height={48}
            onError={() => setLogoFailed(true)}
          />
        )}
        <div className="app-header__titles">
          <span className="app-header__product">PORTAL PACIENTES</span>
          <span className="app-header__clinic">{clinic.title}</span>
        </div>
      </div>
      {acting ? (
        <div className="app-header__acting" title={`Viendo los datos de ${acting.name}`} data-testid="acting-for">
          <span className="app-header__acting-label">Viendo a</span>
          <span className="app-header__acting-name">{acting.name}</span>
        </div>
      ) : displayName ? (
        <div className="app-header__user" title={displayName}>
          <span className="app-header__avatar" aria-hidden="true">
            {initial}
          </span>
          <span className="app-header__name">{displayName}</span>
        </div>
      ) : null}
    </header>
  );
}
