import { useEffect, useState } from "react";
import type { ClaveUnicaSuggested } from "@contract/claveunica.ts";
import { formatRut } from "@contract/rut.ts";
import type { UserDto } from "@contract/users.dto.ts";
import { chileToday } from "../../lib/dates.ts";
import { getClaveUnicaSuggested, setClaveUnicaSuggested } from "../../lib/plain-storage.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { useErrorSummary } from "../../components/ui/ErrorSummary.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { useForm } from "../../lib/use-form.ts";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { SYSTEM_ERROR } from "./PasswordForm.tsx";
import { useUpdateProfile } from "./api/account.api.ts";

export const PROFILE_SAVED = "Se han guardado tus datos satisfactoriamente";

// Its rules load when a field first gets the focus, or when the form is checked (account-forms.ts).
const profileFormSchema = () => import("./account-forms.ts").then((forms) => forms.profileFormSchema);

/**
 * The user's data; a field the patient has left empty takes what ClaveÚnica said (issue 43), for them to confirm with
 * 'Guardar datos'. Anything the patient has is kept as it is.
 */
function initialValues(user: UserDto, suggested: ClaveUnicaSuggested) {
  const orSuggested = (value: string | null, field: keyof ClaveUnicaSuggested) => value?.trim() || suggested[field] || value || "";
  return {
    firstName: orSuggested(user.firstName, "firstName"),
    secondName: orSuggested(user.secondName, "secondName"),
    lastName: orSuggested(user.lastName, "lastName"),
    secondLastName: orSuggested(user.secondLastName, "secondLastName"),
    email: orSuggested(user.email, "email"),
    phoneNumber: user.phoneNumber ?? "",
    birthDate: user.birthDate ?? "",
  };
}

/** The fields in the order of the form, with the label the error summary names them by. */
const fieldLabels = {
  email: "Correo electrónico",
  firstName: "Primer nombre",
  secondName: "Segundo nombre (opcional)",
  lastName: "Apellido paterno",
  secondLastName: "Apellido materno",
  phoneNumber: "Teléfono",
  birthDate: "Fecha de nacimiento",
} as const;
type ProfileField = keyof typeof fieldLabels;
const fieldId = (name: ProfileField) => `perfil-${name}`;

export interface ProfileFormProps {
  /** The user whose data fills the form (read once, when the form mounts). */
  user: UserDto;
  /** After a successful save, with the server's user. */
  onSaved(user: UserDto): void;
  /** Where the success modal sends the user when it closes (the end of the first-login journey). */
  nextPath?: string;
  /** Marks the missing and invalid fields on arrival ('Complete sus datos' sent the patient here). */
  markMissing?: boolean;
}

/**
 * Personal data (SPEC §3 User, §5 rules from server/contract/validation.ts): the RUT read-only, names, e-mail, phone
 * and birth date; each error shows once its field was left. 'Guardar datos' stays enabled (issue 33, GOV.UK): a save
 * stopped by errors lists them at the top and focuses the first field.
 */
export function ProfileForm({ user, onSaved, nextPath, markMissing = false }: ProfileFormProps) {
  const [suggested] = useState(getClaveUnicaSuggested);
  const form = useForm(profileFormSchema, initialValues(user, suggested));
  const prefilled = (Object.keys(suggested) as (keyof ClaveUnicaSuggested)[]).filter((field) => !user[field]?.trim());
  const errorSummary = useErrorSummary(fieldLabels, fieldId, form.errors, markMissing);
  useEffect(() => {
    if (markMissing) form.validate();
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const text = (name: ProfileField) => ({ id: fieldId(name), label: fieldLabels[name], ...form.field(name) });
  const failure = useSaveFailure(SYSTEM_ERROR);
  const save = useUpdateProfile({
    onSuccess: (saved) => {
      // Confirmed (or changed) by the patient: ClaveÚnica's suggestions are done with.
      setClaveUnicaSuggested(null);
      onSaved(saved);
      void showModal(
        nextPath
          ? { title: PROFILE_SAVED, body: "Ya puede utilizar el portal.", buttons: ["Continuar"], navigateTo: nextPath }
          : { title: PROFILE_SAVED, body: "", buttons: ["Entendido"] },
      );
    },
    onError: failure.onError,
  });

  const submit = form.submit(
    (values) => {
      if (save.isPending) return;
      failure.clear();
      save.mutate(values);
    },
    () => errorSummary.stop(),
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Datos personales">
      {failure.banner}
      {errorSummary.summary}
      {prefilled.length > 0 ? (
        <p className="form__intro" role="note">
          Completamos los campos vacíos con sus datos de ClaveÚnica. Revíselos y presione &apos;Guardar datos&apos;.
        </p>
      ) : null}
      <div className="form__grid">
        <TextField
          label="Rut"
          name="rut"
          value={formatRut(user.rut)}
          onChange={() => undefined}
          readOnly
          hint="El Rut no se puede modificar."
        />
        <TextField type="email" autoComplete="email" inputMode="email" {...text("email")} />
        <TextField autoComplete="given-name" {...text("firstName")} />
        <TextField autoComplete="additional-name" {...text("secondName")} />
        <TextField autoComplete="family-name" {...text("lastName")} />
        <TextField {...text("secondLastName")} />
        <TextField
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="9 8765 4321"
          hint="Por ejemplo +56 9 8765 4321"
          {...text("phoneNumber")}
        />
        <TextField type="date" max={chileToday()} min="1900-01-01" autoComplete="bday" {...text("birthDate")} />
      </div>
      <div className="form__actions">
        <Button type="submit" disabled={save.isPending}>
          Guardar datos
        </Button>
      </div>
    </form>
  );
}
