import { useState } from "react";
import { Button } from "../../components/ui/Button.tsx";
import { CheckCircleIcon } from "../../components/ui/icons.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentPortalLink } from "../../lib/clinic.ts";
import { AppLink, useNavigateTo, useSearchParam } from "../../lib/navigation.tsx";
import { formatRutInput } from "../../lib/rut-input.ts";
import { useForm } from "../../lib/use-form.ts";
import { AuthLayout } from "./AuthLayout.tsx";
import { NewPasswordStep } from "./NewPasswordStep.tsx";
import { useRequestPasswordReset } from "./api/auth.api.ts";

const requestSchema = () => import("./auth-forms.ts").then((forms) => forms.resetRequestSchema);

/** Step 1: ask for the Rut; step 2 follows whatever the answer, so the page never reveals whether an account exists. */
function RequestStep({ onDone }: { onDone(): void }) {
  const form = useForm(requestSchema, { rut: "" });
  const request = useRequestPasswordReset({ onSettled: onDone });

  const submit = form.submit(({ rut }) => {
    if (!request.isPending) request.mutate({ rut, rcrLink: currentPortalLink() });
  });

  return (
    <>
      <h1 className="auth__title">Recuperar contraseña</h1>
      <p className="auth__intro">Ingrese su Rut y le enviaremos un correo con las instrucciones para crear una nueva contraseña.</p>
      <form className="form" onSubmit={submit} noValidate>
        <TextField label="Rut" placeholder="12.345.678-9" autoComplete="username" maxLength={12} {...form.field("rut", formatRutInput)} />
        <Button type="submit" block disabled={!form.isValid || request.isPending}>
          Enviar
        </Button>
        <p className="form__aside form__aside--center">
          <AppLink to="/login">Volver al inicio de sesión</AppLink>
        </p>
      </form>
    </>
  );
}

function SentStep() {
  const navigate = useNavigateTo();
  return (
    <div className="auth__result">
      <h1 className="auth__title">Revise su correo</h1>
      <p className="auth__intro">
        Si existe una cuenta asociada al Rut ingresado, le enviaremos un correo con las instrucciones para restablecer su contraseña. Si no
        lo encuentra en su bandeja de entrada, revise también la carpeta de correo no deseado (spam).
      </p>
      <Button block onClick={() => navigate("/login")}>
        Volver al portal
      </Button>
    </div>
  );
}

function DoneStep() {
  const navigate = useNavigateTo();
  return (
    <div className="auth__result">
      <CheckCircleIcon size={48} className="auth__result-icon" />
      <h1 className="auth__title">Contraseña actualizada</h1>
      <p className="auth__intro">Ya puede ingresar al portal con su nueva contraseña.</p>
      <Button block onClick={() => navigate("/")}>
        Ir al portal
      </Button>
    </div>
  );
}

/** /recover-password (SPEC §2, four steps); with ?token&rut from the e-mail it shows the new-password form. */
export default function RecoverPasswordPage() {
  const token = useSearchParam("token");
  const rut = useSearchParam("rut");
  const [step, setStep] = useState<"request" | "sent" | "new" | "done">(token ? "new" : "request");
  return (
    <AuthLayout>
      {step === "request" ? <RequestStep onDone={() => setStep("sent")} /> : null}
      {step === "sent" ? <SentStep /> : null}
      {step === "new" && token ? <NewPasswordStep token={token} rut={rut ?? ""} onDone={() => setStep("done")} /> : null}
      {step === "done" ? <DoneStep /> : null}
    </AuthLayout>
  );
}
