import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Role, type RoleType } from "../../../../server/contract/roles.ts";
import type { UserDetailDto } from "../../../../server/features/users/user.dto.ts";
import { showModal, showToast } from "../../app/overlays/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { useSessionUser } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useForm } from "../../lib/use-form.ts";
import { ContactDataForm } from "./ContactDataForm.tsx";
import { PersonalDataForm } from "./PersonalDataForm.tsx";
import { editUserFormSchema, editUserValues, privilegeCodes, privilegePlan, toRoleType, userScreenMessages } from "./user-forms.ts";

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
 */
export function EditUserForm({ user, viewerIsAdmin }: EditUserFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user: viewer, setUser: setSessionUser } = useSessionUser();
  const form = useForm(editUserFormSchema, editUserValues(user));
  const initialRole = toRoleType(String(user.roleType)) ?? Role.patient;
  const [roleType, setRoleType] = useState<RoleType>(initialRole);
  const [clinics, setClinics] = useState(() => privilegeCodes(user));
  // What the server holds now, for the privilege plan of the next save.
  const [stored, setStored] = useState(() => ({ role: user.roleType, clinics: privilegeCodes(user) }));
  const [saving, setSaving] = useState(false);

  const catalogue = useQuery(trpc.users.clinics.queryOptions(undefined, { enabled: viewerIsAdmin, staleTime: Infinity }));
  useEffect(() => {
    if (catalogue.isError) showToast(userScreenMessages.loadFailed);
  }, [catalogue.isError]);

  const update = useMutation(trpc.users.update.mutationOptions());
  const privileges = useMutation(trpc.users.setPrivileges.mutationOptions());
  const ownAccount = viewer?.id === user.id;

  async function save() {
    const newRole = viewerIsAdmin ? roleType : user.roleType;
    const plan = privilegePlan({ viewerIsAdmin, savedRole: stored.role, newRole, savedClinics: stored.clinics, selectedClinics: clinics });

    if (plan.clearBefore) {
      try {
        await privileges.mutateAsync({ userId: user.id, privileges: [] });
      } catch {
        showToast(userScreenMessages.privilegesFailed);
        return;
      }
      setStored((current) => ({ ...current, clinics: [] }));
    }

    let saved: UserDetailDto;
    try {
      saved = await update.mutateAsync({ id: user.id, ...form.values, ...(viewerIsAdmin ? { roleType } : {}) });
    } catch {
      showToast(userScreenMessages.updateFailed);
      return;
    }
    setStored({ role: saved.roleType, clinics: privilegeCodes(saved) });
    if (saved.roleType !== Role.executive) setClinics([]);
    if (ownAccount) {
      const { privileges: _privileges, patientClinics: _patientClinics, ...own } = saved;
      setSessionUser(own);
    }

    if (plan.setAfter) {
      try {
        const rows = await privileges.mutateAsync({
          userId: user.id,
          privileges: plan.setAfter.map((codeClinicStr) => ({ codeClinicStr })),
        });
        setStored({ role: saved.roleType, clinics: rows.map((row) => row.codeClinicStr) });
      } catch {
        showToast(userScreenMessages.privilegesFailed);
        return;
      }
    }

    await queryClient.invalidateQueries({ queryKey: trpc.users.list.pathKey() });
    void showModal({ title: userScreenMessages.saved, body: userScreenMessages.savedBody, buttons: ["Entendido"] });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || saving) return;
    setSaving(true);
    void save().finally(() => setSaving(false));
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Modificación de usuario">
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
        <Button type="submit" disabled={!form.isValid || saving}>
          Guardar cambios
        </Button>
      </div>
    </form>
  );
}
