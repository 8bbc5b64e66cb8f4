import { type FormEvent } from "react";
import { profileSchema } from "@contract/validation.ts";
import { formatRut } from "@contract/rut.ts";
import type { UserDto } from "@contract/users.dto.ts";
import { chileToday } from "../../lib/dates.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { useForm } from "../../lib/use-form.ts";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { SYSTEM_ERROR } from "./PasswordForm.tsx";
import { useUpdateProfile } from "./api/account.api.ts";

export const PROFILE_SAVED = "Se han guardado tus datos satisfactoriamente";

function initialValues(user: UserDto) {
  return {
    firstName: user.firstName ?? "",
    secondName: user.secondName ?? "",
    lastName: user.lastName ?? "",
    secondLastName: user.secondLastName ?? "",
    email: user.email ?? "",
    phoneNumber: user.phoneNumber ?? "",
    birthDate: user.birthDate ?? "",
  };
}

export interface ProfileFormProps {
  /** The user whose data fills the form (read once, when the form mounts). */
  user: UserDto;
  /** After a successful save, with the server's user. */
  onSaved(user: UserDto): void;
  /** Where the success modal sends the user when it closes (the end of the first-login journey). */
  nextPath?: string;
}

/**
 * Personal data (SPEC §3 User, §5 rules from server/contract/validation.ts): the RUT read-only, names, e-mail, phone
 * and birth date; each error shows once its field was left; save is disabled while anything is invalid.
 */
export function ProfileForm({ user, onSaved, nextPath }: ProfileFormProps) {
  const form = useForm(profileSchema, initialValues(user));
  const failure = useSaveFailure(SYSTEM_ERROR);
  const save = useUpdateProfile({
    onSuccess: (saved) => {
      onSaved(saved);
      void showModal(
        nextPath
          ? { title: PROFILE_SAVED, body: "Ya puede utilizar el portal.", buttons: ["Continuar"], navigateTo: nextPath }
          : { title: PROFILE_SAVED, body: "", buttons: ["Entendido"] },
      );
    },
    onError: failure.onError,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || save.isPending) return;
    failure.clear();
    save.mutate(form.values);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Datos personales">
      {failure.banner}
      <div className="form__grid">
        <TextField
          label="Rut"
          name="rut"
          value={formatRut(user.rut)}
          onChange={() => undefined}
          readOnly
          hint="El Rut no se puede modificar."
        />
        <TextField label="Correo electrónico" type="email" autoComplete="email" inputMode="email" {...form.field("email")} />
        <TextField label="Primer nombre" autoComplete="given-name" {...form.field("firstName")} />
        <TextField label="Segundo nombre (opcional)" autoComplete="additional-name" {...form.field("secondName")} />
        <TextField label="Apellido paterno" autoComplete="family-name" {...form.field("lastName")} />
        <TextField label="Apellido materno" {...form.field("secondLastName")} />
        <TextField
          label="Teléfono"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+56912345678"
          {...form.field("phoneNumber")}
        />
        <TextField
          label="Fecha de nacimiento"
          type="date"
          max={chileToday()}
          min="1900-01-01"
          autoComplete="bday"
          {...form.field("birthDate")}
        />
      </div>
      <div className="form__actions">
        <Button type="submit" disabled={!form.isValid || save.isPending}>
          Guardar datos
        </Button>
      </div>
    </form>
  );
}
