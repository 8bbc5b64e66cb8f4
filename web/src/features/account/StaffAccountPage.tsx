import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { ActiveSessions } from "./sessions/ActiveSessions.tsx";
import { SecondFactorSection } from "./second-factor/SecondFactorSection.tsx";
import "./account.css";

/** /admin/account: the staff's 'Mi cuenta' — where their account is signed in (issue 27). */
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
    </div>
  );
}
