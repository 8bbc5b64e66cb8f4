import { useState } from "react";
import type { UserDto } from "@contract/users.dto.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { PasswordField } from "../../components/ui/PasswordField.tsx";
import { NewPasswordFields } from "../../components/ui/NewPasswordFields.tsx";
import { setToken } from "../../lib/storage.ts";
import { useForm } from "../../lib/use-form.ts";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { useChangeOwnPassword } from "./api/account.api.ts";

export const SYSTEM_ERROR = "error de sistema vuelva a intentarlo";

// Errors whose Spanish message the user can act on ('La contraseña actual es incorrecta', the new-password rule,
// too many attempts) are also shown in the form; every failure gets the spec's toast.
const SHOWN_CODES = ["BAD_REQUEST", "TOO_MANY_REQUESTS"];

// Its rules load when a field first gets the focus (account-forms.ts).
const passwordFormSchema = () => import("./account-forms.ts").then((forms) => forms.passwordFormSchema);

const emptyForm = { oldPassword: "", password: "", passwordConfirmation: "" };

export interface PasswordFormProps {
  /** The signed-in user's RUT, sent with the change (SPEC §3 "plus rut on send"). */
  rut: string;
  /** After a successful change, with the updated user (hasChangedPassword true). The new token is already stored. */
  onChanged(user: UserDto): void;
}

/**
 * In-session password change. The server answers a new access token (the old one stops working), which is stored
 * before anything else; then the 'Cambios actualizados' modal shows and the fields are emptied.
 */
export function PasswordForm(props: PasswordFormProps) {
  // A new key after each success starts the fields (and their touched state) from scratch.
  const [round, setRound] = useState(0);
  return (
    <PasswordFormFields
      key={round}
      {...props}
      onChanged={(user) => {
        setRound((value) => value + 1);
        props.onChanged(user);
      }}
    />
  );
}

function PasswordFormFields({ rut, onChanged }: PasswordFormProps) {
  const form = useForm(passwordFormSchema, emptyForm);
  const failure = useSaveFailure(SYSTEM_ERROR, SHOWN_CODES);
  const change = useChangeOwnPassword({
    onSuccess: ({ user, accessToken }) => {
      setToken(accessToken);
      onChanged(user);
      void showModal({ title: "Cambios actualizados", body: "¡Los cambios fueron guardados exitosamente!", buttons: ["Entendido"] });
    },
    onError: failure.onError,
  });

  const submit = form.submit((values) => {
    if (change.isPending) return;
    failure.clear();
    change.mutate({ ...values, rut });
  });

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Cambio de contraseña">
      {failure.banner}
      <div className="form__grid">
        <PasswordField
          label="Contraseña actual"
          autoComplete="current-password"
          className="form__row-start"
          {...form.field("oldPassword")}
        />
        <NewPasswordFields
          password={form.field("password")}
          confirmation={form.field("passwordConfirmation")}
          newRowClassName="form__row-start"
        />
      </div>
      <div className="form__actions">
        <Button type="submit" disabled={!form.isValid || change.isPending}>
          Guardar contraseña
        </Button>
      </div>
    </form>
  );
}
