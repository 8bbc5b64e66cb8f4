import { Link } from "react-router";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { ActiveSessions } from "./sessions/ActiveSessions.tsx";
import { SecondFactorSection } from "./second-factor/SecondFactorSection.tsx";
import "./account.css";

/**
 * /admin/account: the staff's 'Mi cuenta' (in the staff menu, issue 42) — second factor, where the account is signed
 * in (issue 27), and the way to change the password.
 */
export default function StaffAccountPage() {
  return (
    <div className="account-page">
      <PageTitle title="Mi cuenta" subtitle="Sesiones y seguridad" />
      <Card>
        <SecondFactorSection />
      </Card>
      <Card>
        <ActiveSessions />
      </Card>
      <Card>
        <section aria-labelledby="staff-password-title">
          <h2 id="staff-password-title">Contraseña</h2>
          <p>Al cambiarla, sus demás sesiones se cierran y esta sigue abierta.</p>
          <Link to="/admin/change-password">Cambiar contraseña</Link>
        </section>
      </Card>
    </div>
  );
}
