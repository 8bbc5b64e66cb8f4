import { useState, type FormEvent } from "react";
import { Role, type RoleType } from "@contract/roles.ts";
import type { UserDetailDto } from "@contract/users.dto.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { useErrorSummary } from "../../components/ui/ErrorSummary.tsx";
import { useSessionUser } from "../../lib/session.ts";
import { useClinicCatalogue } from "./api/users.api.ts";
import { useSaveUser } from "./api/use-save-user.ts";
import { useForm } from "../../lib/use-form.ts";
import { ContactDataForm } from "./ContactDataForm.tsx";
import { PersonalDataForm } from "./PersonalDataForm.tsx";
import {
  editUserFieldId,
  editUserFieldLabels,
  editUserFormSchema,
  editUserValues,
  privilegeCodes,
  toRoleType,
  userScreenMessages,
} from "./user-forms.ts";

export interface EditUserFormProps {
  /** The edited user as loaded (read once, when the form mounts). */
  user: UserDetailDto;
  viewerIsAdmin: boolean;
}

/**
 * 'Datos personales' and 'Datos de contacto' with 'Guardar cambios'. Admin viewers also get the role selector and,
 * for an Ejecutivo, the clinics. Saving: the user update, plus the privileges as privilegePlan says (an executive's
 * selected clinics after the update; an empty list first when the saved role is not Ejecutivo). Failures: 'Error de
 * sistema, por favor vuelva a intentarlo' for the update, 'Error al editar privilegios' for the privileges.
 * 'Guardar cambios' stays enabled (issue 33, GOV.UK): a save stopped by errors lists them at the top and focuses the
 * first field.
 */
export function EditUserForm({ user, viewerIsAdmin }: EditUserFormProps) {
  const { user: viewer, setUser: setSessionUser } = useSessionUser();
  const form = useForm(editUserFormSchema, editUserValues(user));
  const errorSummary = useErrorSummary(editUserFieldLabels, editUserFieldId, form.errors);
  const initialRole = toRoleType(String(user.roleType)) ?? Role.patient;
  const [roleType, setRoleType] = useState<RoleType>(initialRole);
  const [clinics, setClinics] = useState(() => privilegeCodes(user));
  const [saving, setSaving] = useState(false);

  const catalogue = useClinicCatalogue(viewerIsAdmin);

  const { save: saveUser } = useSaveUser(user, viewerIsAdmin);
  const ownAccount = viewer?.id === user.id;

  async function save() {
    const result = await saveUser({
      values: form.values,
      roleType,
      clinics,
      onUserSaved: (saved) => {
        if (saved.roleType !== Role.executive) setClinics([]);
        if (ownAccount) {
          const { privileges: _privileges, patientClinics: _patientClinics, ...own } = saved;
          setSessionUser(own);
        }
      },
    });
    if (!result.ok) {
      showToast(result.failed === "update" ? userScreenMessages.updateFailed : userScreenMessages.privilegesFailed);
      return;
    }
    void showModal({ title: userScreenMessages.saved, body: userScreenMessages.savedBody, buttons: ["Entendido"] });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate()) return errorSummary.stop();
    if (saving) return;
    setSaving(true);
    void save().finally(() => setSaving(false));
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Modificación de usuario">
      {errorSummary.summary}
      <PersonalDataForm
        form={form}
        rut={user.rut}
        access={
          viewerIsAdmin
            ? {
                roleType,
                onRoleType: setRoleType,
                roleLocked: ownAccount,
                clinics: catalogue.data ?? [],
                selectedClinics: clinics,
                onClinics: setClinics,
              }
            : undefined
        }
      />
      <ContactDataForm form={form} />
      <div className="form__actions">
        <Button type="submit" disabled={saving}>
          Guardar cambios
        </Button>
      </div>
    </form>
  );
}
