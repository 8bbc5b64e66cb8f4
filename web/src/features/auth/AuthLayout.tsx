import { useState, type ReactNode } from "react";
import { currentClinic } from "../../lib/clinic.ts";

export interface AuthLayoutProps {
  children: ReactNode;
  /** Extra content under the card (e.g. the links that need no login). */
  aside?: ReactNode;
}

/**
 * Frame of the screens outside the portal (login, recovery, terms). From 1024 px: a brand panel at the left and the
 * form at the right; below: a slim brand bar above the form.
 */
export function AuthLayout({ children, aside }: AuthLayoutProps) {
  const clinic = currentClinic();
  const [logoFailed, setLogoFailed] = useState(false);
  return (
    <div className="auth">
      <div className="auth__brand">
        <div className="auth__brand-inner">
          {logoFailed ? null : <img className="auth__logo" src={clinic.logo} alt={clinic.title} onError={() => setLogoFailed(true)} />}
          <div className="auth__brand-text">
            <p className="auth__product">PORTAL PACIENTES</p>
            <p className="auth__clinic">{clinic.title}</p>
          </div>
          <p className="auth__tagline">Sus horas, exámenes y cuentas de la clínica en un solo lugar.</p>
        </div>
      </div>
      <main className="auth__main">
        <div className="auth__panel">
          <div className="auth__card">{children}</div>
          {aside}
        </div>
      </main>
    </div>
  );
}
