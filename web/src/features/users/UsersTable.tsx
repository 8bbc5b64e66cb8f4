import { Fragment } from "react";
import { roleLabels, type RoleType } from "@contract/roles.ts";
import { formatRut } from "@contract/rut.ts";
import type { UserDto } from "@contract/users.dto.ts";
import { Button } from "../../components/ui/Button.tsx";
import { userScreenMessages } from "./user-forms.ts";

export interface UsersTableProps {
  users: UserDto[];
  /** False until the first answer (no 'No se encontraron usuarios' row meanwhile). */
  loaded: boolean;
  onEdit(user: UserDto): void;
}

const columns = ["RUT", "Nombre", "Email", "Teléfono", "Tipo de Usuario", "Modificar"] as const;

const roleLabel = (roleType: number) => roleLabels[roleType as RoleType] ?? "—";

/** The e-mail with a line-break opportunity after '@', so a long address wraps where it reads well. */
function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?<=@)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}

/**
 * The user list: RUT, Nombre, Email, Teléfono, Tipo de Usuario and a 'Modificar' button. Under 1024 px each row
 * becomes a card with its column names (users.css). Explicit roles keep the table semantics in that layout.
 */
export function UsersTable({ users, loaded, onEdit }: UsersTableProps) {
  return (
    <table className="data-table data-table--cards users-table" role="table" aria-label="Usuarios">
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th key={column} scope="col" role="columnheader">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {users.map((user) => (
          <tr key={user.id} role="row">
            <td role="cell" data-label="RUT" className="users-table__rut">
              {formatRut(user.rut)}
            </td>
            <td role="cell" data-label="Nombre">
              {user.name || <span className="users-table__empty">Sin nombre</span>}
            </td>
            <td role="cell" data-label="Email" className="users-table__email">
              <BreakableEmail email={user.email} />
            </td>
            <td role="cell" data-label="Teléfono" className="users-table__phone">
              {user.phoneNumber ?? <span className="users-table__empty">—</span>}
            </td>
            <td role="cell" data-label="Tipo de Usuario">
              <span className={`users-role users-role--${user.roleType}`}>{roleLabel(user.roleType)}</span>
            </td>
            <td role="cell" data-label="Modificar" className="users-table__action">
              <Button
                variant="secondary"
                className="users-table__edit"
                onClick={() => onEdit(user)}
                aria-label={`Modificar ${formatRut(user.rut)}`}
              >
                Modificar
              </Button>
            </td>
          </tr>
        ))}
        {loaded && users.length === 0 ? (
          <tr role="row" className="users-table__none">
            <td role="cell" colSpan={columns.length}>
              {userScreenMessages.notFound}
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
