import { useNavigate, useSearchParams } from "react-router";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { positiveIntParam } from "../../lib/list-url-state.ts";
import { AccessesView } from "./AccessesView.tsx";
import "./data-rights.css";

/**
 * /admin/patient-accesses?userId={id}, opened from the user's edit page: the patient's 'Accesos a mis datos' as the
 * patient sees it (issue 28). Admins any patient, executives patients of their clinics (the server answers 404 otherwise).
 */
export default function PatientAccessesPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = positiveIntParam(params.get("userId"));
  const back = (
    <Button variant="secondary" onClick={() => void navigate(userId ? `/admin/edit-user?userId=${userId}` : "/admin/admin-users")}>
      Volver
    </Button>
  );
  return (
    <div className="data-rights-page">
      <PageTitle title="Accesos a los datos del paciente" actions={back} />
      <Card className="data-rights">{userId ? <AccessesView userId={userId} /> : <p>No fue posible cargar el usuario.</p>}</Card>
    </div>
  );
}
