import { useState, type FormEvent } from "react";
import { passwordPairSchema } from "@contract/validation.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { NewPasswordFields } from "../../components/ui/NewPasswordFields.tsx";
import { useResetUserPassword } from "./api/users.api.ts";
import { useForm } from "../../lib/use-form.ts";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { userScreenMessages } from "./user-forms.ts";

export interface StaffPasswordFormProps {
  /** The edited user's RUT (the password is set for that account). */
  rut: string;
}

/**
 * 'Cambiar contraseña' of the edit-user screen (admin/resetPassword): a new password and its repetition, each with
 * show/hide. The user's sessions end and they must choose their own password at the next login.
 */
export function StaffPasswordForm({ rut }: StaffPasswordFormProps) {
  // A new key after each success starts the fields (and their touched state) from scratch.
  const [round, setRound] = useState(0);
  return <StaffPasswordFields key={round} rut={rut} onDone={() => setRound((value) => value + 1)} />;
}

const PASSWORD_CHANGE_FAILED = "error de sistema vuelva a intentarlo";

function StaffPasswordFields({ rut, onDone }: StaffPasswordFormProps & { onDone(): void }) {
  const form = useForm(passwordPairSchema, { password: "", passwordConfirmation: "" });
  const failure = useSaveFailure(PASSWORD_CHANGE_FAILED);
  const reset = useResetUserPassword({
    onSuccess: () => {
      onDone();
      void showModal({ title: userScreenMessages.saved, body: userScreenMessages.savedBody, buttons: ["Entendido"] });
    },
    onError: failure.onError,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || reset.isPending) return;
    reset.mutate({ rut, ...form.values });
  }

  return (
    <Card title="Cambiar contraseña" className="users-card">
      <form className="form" onSubmit={submit} noValidate aria-label="Cambiar contraseña">
        <p className="form__intro">
          Al cambiarla se cierran las sesiones abiertas del usuario, que deberá elegir una contraseña propia en su próximo ingreso.
        </p>
        {failure.banner}
        <div className="form__grid">
          <NewPasswordFields password={form.field("password")} confirmation={form.field("passwordConfirmation")} />
        </div>
        <div className="form__actions">
          <Button type="submit" disabled={!form.isValid || reset.isPending}>
            Guardar contraseña
          </Button>
        </div>
      </form>
    </Card>
  );
}
