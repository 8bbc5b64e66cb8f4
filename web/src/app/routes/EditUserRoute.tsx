import { Role } from "@contract/roles.ts";
import { CaregiversSection } from "../../features/caregivers/CaregiversSection.tsx";
import EditUserPage from "../../features/users/EditUserPage.tsx";

/** /admin/edit-user: the user's edit page, with 'Cuidadores' for patients (issue 30). */
export default function EditUserRoute() {
  return (
    <EditUserPage
      extra={(user) =>
        user.roleType === Role.patient ? <CaregiversSection dependentId={user.id} birthDate={user.birthDate ?? null} /> : null
      }
    />
  );
}
