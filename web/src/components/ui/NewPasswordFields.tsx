import type { FieldBinding } from "../../lib/use-form.ts";
import { PasswordField } from "./PasswordField.tsx";

export const NEW_PASSWORD_HINT = "Al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número.";

/** The new password and its repetition, each with show/hide (recovery, 'Mi cuenta' and the staff password form). */
export function NewPasswordFields({
  password,
  confirmation,
  newRowClassName,
}: {
  password: FieldBinding;
  confirmation: FieldBinding;
  newRowClassName?: string;
}) {
  return (
    <>
      <PasswordField
        label="Nueva contraseña"
        autoComplete="new-password"
        className={newRowClassName}
        hint={NEW_PASSWORD_HINT}
        {...password}
      />
      <PasswordField label="Repetir contraseña" autoComplete="new-password" {...confirmation} />
    </>
  );
}
