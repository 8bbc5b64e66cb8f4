import { roleLabels, type RoleType } from "@contract/roles.ts";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { roleTypes, toRoleType } from "./user-forms.ts";

export interface RoleSelectProps {
  value: RoleType;
  onChange(role: RoleType): void;
  disabled?: boolean;
  hint?: string;
  className?: string;
}

const options = roleTypes.map((role) => ({ value: String(role), label: roleLabels[role] }));

/** 'Tipo de usuario': Administrador (0), Ejecutivo (1), Paciente (2). Shown to admin viewers only. */
export function RoleSelect({ value, onChange, disabled, hint, className }: RoleSelectProps) {
  return (
    <SelectField
      label="Tipo de usuario"
      name="roleType"
      value={String(value)}
      options={options}
      disabled={disabled}
      hint={hint}
      className={className}
      onChange={(next) => {
        const role = toRoleType(next);
        if (role !== undefined) onChange(role);
      }}
    />
  );
}
