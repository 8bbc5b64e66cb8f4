import { useState } from "react";
import { currentClinic } from "../../lib/clinic.ts";
import { useSessionUser } from "../../lib/session.ts";

/** Top bar: clinic logo, 'PORTAL PACIENTES', the clinic's title and the signed-in user's name. */
export function Header() {
  const clinic = currentClinic();
  const { user } = useSessionUser();
  const [logoFailed, setLogoFailed] = useState(false);
  const displayName = user?.name?.trim() || user?.rut || "";
  // The avatar shows the first letter of a name; a user known only by RUT gets a neutral mark, not a digit.
  const initial = /^\p{L}/u.test(displayName) ? displayName.charAt(0).toUpperCase() : "•";
  return (
    <header className="app-header">
      <div className="app-header__brand">
        {logoFailed ? null : (
          <img className="app-header__logo" src={clinic.logo} alt={clinic.title} height={40} onError={() => setLogoFailed(true)} />
        )}
        <div className="app-header__titles">
          <span className="app-header__product">PORTAL PACIENTES</span>
          <span className="app-header__clinic">{clinic.title}</span>
        </div>
      </div>
      {displayName ? (
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
