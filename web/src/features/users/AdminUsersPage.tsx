import { useNavigate } from "react-router";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { PAGE_SIZE } from "../../components/ui/paginator-pages.ts";
import { useUsersList } from "./api/users.api.ts";
import { asWritten, useListUrlState } from "../../lib/list-url-state.ts";
import { CREATE_USER_PATH, editUserPath, toRoleType } from "./user-forms.ts";
import { UsersSearch } from "./UsersSearch.tsx";
import { UsersTable } from "./UsersTable.tsx";
import { UserTypeFilter } from "./UserTypeFilter.tsx";
import "./users.css";

/**
 * /admin/admin-users, 'Usuarios y Pacientes' (SPEC §2): user-type filter, search over RUT, e-mail and names,
 * 'Crear cuenta', the user table and the paginator (10 a page). The page, search and filter live in the address
 * (?page=&buscar=&tipo=) so coming back from a user's screen shows the same list. A failed list is silently ignored
 * (SPEC §8): the previous rows stay.
 */
// An unknown user type in the address reads as 'Todos'.
const knownRoleType = (raw: string) => (toRoleType(raw) === undefined ? "" : raw);

export default function AdminUsersPage() {
  const navigate = useNavigate();
  const { page, values, show } = useListUrlState({ buscar: asWritten, tipo: knownRoleType });
  const search = values.buscar;
  const roleType = toRoleType(values.tipo);

  const list = useUsersList({ page, search, roleType });

  const users = list.data?.usersList ?? [];
  return (
    <div className="users-page">
      <PageTitle title="Usuarios y Pacientes" actions={<Button onClick={() => void navigate(CREATE_USER_PATH)}>Crear cuenta</Button>} />
      <Card>
        <div className="users-toolbar">
          <UserTypeFilter value={values.tipo} onChange={(tipo) => show({ tipo, page: 1 })} />
          <UsersSearch key={search} value={search} onSearch={(buscar) => show({ buscar, page: 1 })} />
        </div>
        <div className="users-table__scroller" tabIndex={0} role="region" aria-label="Usuarios, tabla desplazable">
          <UsersTable users={users} loaded={list.data !== undefined} onEdit={(user) => void navigate(editUserPath(user.id))} />
        </div>
        {list.data && list.data.total > 0 ? (
          <Paginator page={page} total={list.data.total} limit={PAGE_SIZE} onPageChange={(next) => show({ page: next })} />
        ) : null}
      </Card>
    </div>
  );
}
