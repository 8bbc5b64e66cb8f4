import { Button } from "../../components/ui/Button.tsx";
import { NewPasswordFields } from "../../components/ui/NewPasswordFields.tsx";
import { useSaveFailure } from "../../components/ui/use-save-failure.tsx";
import { useForm } from "../../lib/use-form.ts";
import { useResetPassword } from "./api/auth.api.ts";

const passwordsSchema = () => import("./auth-forms.ts").then((forms) => forms.newPasswordSchema);

const SAVE_FAILED = "error de sistema vuelva a intentarlo";

export interface NewPasswordStepProps {
  token: string;
  rut: string;
  onDone(): void;
}

/** Step 3 of the recovery: new password twice, with the contract's rules; save stays disabled while invalid. */
export function NewPasswordStep({ token, rut, onDone }: NewPasswordStepProps) {
  const form = useForm(passwordsSchema, { password: "", passwordConfirmation: "" });
  const failure = useSaveFailure(SAVE_FAILED);
  const save = useResetPassword({ onSuccess: onDone, onError: failure.onError });

  const submit = form.submit((values) => {
    if (!save.isPending) save.mutate({ token, rut, ...values });
  });

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
