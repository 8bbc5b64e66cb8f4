import { type FormEvent } from "react";
import { passwordPairSchema } from "@contract/validation.ts";
import { Button } from "../../components/ui/Button.tsx";
import { NewPasswordFields } from "../../components/ui/NewPasswordFields.tsx";
import { useForm } from "../../lib/use-form.ts";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { useResetPassword } from "./api/auth.api.ts";

const SAVE_FAILED = "error de sistema vuelta a intentarlo";

export interface NewPasswordStepProps {
  token: string;
  rut: string;
  onDone(): void;
}

/** Step 3 of the recovery: new password twice, with the contract's rules; save stays disabled while invalid. */
export function NewPasswordStep({ token, rut, onDone }: NewPasswordStepProps) {
  const form = useForm(passwordPairSchema, { password: "", passwordConfirmation: "" });
  const failure = useSaveFailure(SAVE_FAILED);
  const save = useResetPassword({ onSuccess: onDone, onError: failure.onError });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || save.isPending) return;
    save.mutate({ token, rut, ...form.values });
  }

  return (
    <>
      <h1 className="auth__title">Nueva contraseña</h1>
      <p className="auth__intro">
        {rut ? (
          <>
            Cree una nueva contraseña para el Rut <strong>{rut}</strong>.{" "}
          </>
        ) : null}
        Debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número.
      </p>
      <form className="form" onSubmit={submit} noValidate>
        {failure.banner}
        <NewPasswordFields password={form.field("password")} confirmation={form.field("passwordConfirmation")} />
        <Button type="submit" block disabled={!form.isValid || save.isPending}>
          Guardar contraseña
        </Button>
      </form>
    </>
  );
}
