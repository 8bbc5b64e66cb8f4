import { useEffect } from "react";
import { useNavigate } from "react-router";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { useSecondFactorStatus } from "./api/second-factor.api.ts";
import { SecondFactorSetup } from "./second-factor/SecondFactorSetup.tsx";
import "./account.css";

const STAFF_HOME = "/admin/admin-users";

/**
 * /admin/second-factor: staff set up the second factor before the staff pages (the server refuses them those
 * meanwhile; issue 27). A person who already has it goes on to the staff home.
 */
export default function StaffSecondFactorPage() {
  const navigate = useNavigate();
  const status = useSecondFactorStatus();
  useEffect(() => {
    if (status.data?.enabled) navigate(STAFF_HOME);
  }, [status.data, navigate]);

  return (
    <div className="account-page">
      <PageTitle title="Verificación en dos pasos" subtitle="Configure su aplicación de autenticación" />
      <Card>{status.data && !status.data.enabled ? <SecondFactorSetup onDone={() => navigate(STAFF_HOME)} /> : null}</Card>
    </div>
  );
}
