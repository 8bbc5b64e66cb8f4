import { Role, type RoleType } from "@contract/roles.ts";
import { formatRut } from "@contract/rut.ts";
import type { ClinicDto } from "@contract/users.dto.ts";
import { Card } from "../../components/ui/Card.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import type { useForm } from "../../lib/use-form.ts";
import { ClinicMultiSelect } from "./ClinicMultiSelect.tsx";
import { RoleSelect } from "./RoleSelect.tsx";
import { editUserFieldId, editUserFieldLabels, type EditUserField, type EditUserValues } from "./user-forms.ts";

export type EditUserForm = ReturnType<typeof useForm<EditUserValues>>;

/** The admin-only part of 'Datos personales': the role selector and, for an Ejecutivo, the clinics. */
export interface RoleAccess {
  roleType: RoleType;
  onRoleType(role: RoleType): void;
  /** The role cannot be changed (an admin editing their own account). */
  roleLocked: boolean;
  clinics: ClinicDto[];
  selectedClinics: string[];
  onClinics(codes: string[]): void;
}

export interface PersonalDataFormProps {
  form: EditUserForm;
  rut: string;
  /** Given only to admin viewers (SPEC §6). */
  access?: RoleAccess;
}

/** 'Datos personales' of the edit-user screen: RUT (read-only), names, and for admins the role and clinics. */
/** A text field of the edit-user form: its label, its id (the error summary's link target) and its binding. */
export function editUserText(form: EditUserForm, name: EditUserField) {
  return { id: editUserFieldId(name), label: editUserFieldLabels[name], ...form.field(name) };
}

export function PersonalDataForm({ form, rut, access }: PersonalDataFormProps) {
  return (
    <Card title="Datos personales" className="users-card">
      <div className="form__grid">
        <TextField label="Rut" name="rut" value={formatRut(rut)} onChange={() => undefined} readOnly hint="El Rut no se puede modificar." />
        {access ? (
          <RoleSelect
            value={access.roleType}
            onChange={access.onRoleType}
            disabled={access.roleLocked}
            hint={access.roleLocked ? "No puede cambiar su propio tipo de usuario." : undefined}
          />
        ) : null}
        {access && access.roleType === Role.executive ? (
          <ClinicMultiSelect clinics={access.clinics} selected={access.selectedClinics} onChange={access.onClinics} />
        ) : null}
        <TextField autoComplete="off" className="form__row-start" {...editUserText(form, "firstName")} />
        <TextField autoComplete="off" {...editUserText(form, "secondName")} />
        <TextField autoComplete="off" {...editUserText(form, "lastName")} />
        <TextField autoComplete="off" {...editUserText(form, "secondLastName")} />
      </div>
    </Card>
  );
}
