import { roleLabels } from "@contract/roles.ts";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { roleTypes } from "./user-forms.ts";

export interface UserTypeFilterProps {
  /** '' for every type, else '0', '1' or '2'. */
  value: string;
  onChange(value: string): void;
}

const options = [{ value: "", label: "Todos" }, ...roleTypes.map((role) => ({ value: String(role), label: roleLabels[role] }))];

/** The user-type filter of 'Usuarios y Pacientes'; a change applies at once. */
export function UserTypeFilter({ value, onChange }: UserTypeFilterProps) {
  return (
    <SelectField
      label="Tipo de usuario"
      name="roleType"
      value={value}
      options={options}
      onChange={onChange}
      className="users-toolbar__filter"
    />
  );
}
