import { useEffect, type ReactNode } from "react";
import type { UserDetailDto } from "@contract/users.dto.ts";
import { useNavigate, useSearchParams } from "react-router";
import { Role } from "@contract/roles.ts";
import { showToast } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { usePortalType } from "../../lib/session.ts";
import { useUserDetail } from "./api/users.api.ts";
import { EditUserForm } from "./EditUserForm.tsx";
import { SendResetLink } from "./SendResetLink.tsx";
import { StaffPasswordForm } from "./StaffPasswordForm.tsx";
import { SecondFactorResetForm } from "./SecondFactorResetForm.tsx";
import { positiveIntParam } from "../../lib/list-url-state.ts";
import { ADMIN_USERS_PATH, userScreenMessages } from "./user-forms.ts";
import "./users.css";

/**
 * /admin/edit-user?userId={id}, 'Modificación de usuario' (SPEC §2, §6): personal data (role and clinics for admin
 * viewers), contact data, and a separate password form. A user that cannot be loaded (missing, or outside an
 * executive's clinics: the server answers 404) shows the toast 'Hubo un error al procesar la solicitud, por favor
 * intente más tarde'. `extra` adds sections composed by app/routes (issue 30: 'Cuidadores' for patients).
 */
export default function EditUserPage({ extra }: { extra?: (user: UserDetailDto) => ReactNode } = {}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = positiveIntParam(params.get("userId"));
  const viewerIsAdmin = usePortalType() === String(Role.admin);
  const detail = useUserDetail(userId);
  const failed = userId === undefined || detail.isError;

  // A failed load's toast is the query's meta.errorToast; an address without a user id has no query to fail.
  useEffect(() => {
    if (userId === undefined) showToast(userScreenMessages.loadFailed);
  }, [userId]);

  const back = (
    <Button variant="secondary" onClick={() => void navigate(ADMIN_USERS_PATH)}>
      Volver
    </Button>
  );
  const user = detail.data;
  return (
    <div className="users-page">
      <PageTitle title="Modificación de usuario" subtitle={user ? user.name || user.email : undefined} actions={back} />
      {user ? (
        <>
          <EditUserForm key={user.id} user={user} viewerIsAdmin={viewerIsAdmin} />
          <StaffPasswordForm rut={user.rut} />
          <SendResetLink userId={user.id} />
          {viewerIsAdmin ? <SecondFactorResetForm userId={user.id} /> : null}
          {user.roleType === Role.patient ? (
            <Card className="users-card" title="Accesos a los datos del paciente">
              <p>Quién leyó o cambió los datos de este paciente y cuándo, como lo ve el paciente en 'Mis datos'.</p>
              <Button variant="secondary" onClick={() => void navigate(`/admin/patient-accesses?userId=${user.id}`)}>
                Ver accesos
              </Button>
            </Card>
          ) : null}
          {extra?.(user)}
        </>
      ) : null}
      {failed ? (
        <Card className="users-card">
          <p>No fue posible cargar el usuario.</p>
        </Card>
      ) : null}
    </div>
  );
}
