import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Role, type RoleType } from "@contract/roles.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { useErrorSummary } from "../../components/ui/ErrorSummary.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentPortalLink } from "../../lib/clinic.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { usePortalType } from "../../lib/session.ts";
import { duplicateRutMessage, useCreateUser } from "./api/users.api.ts";
import { useForm } from "../../lib/use-form.ts";
import { RoleSelect } from "./RoleSelect.tsx";
import { ADMIN_USERS_PATH, createUserFormSchema, userScreenMessages } from "./user-forms.ts";
import "./users.css";

/**
 * /admin/create-user, 'Crear cuenta de usuario' (SPEC §2, §5): Rut, e-mail and, for admin viewers only, the user
 * type (default Paciente). 'Crear cuenta' stays disabled until the Rut and the e-mail are valid; each error shows
 * once its field was left. The server e-mails a temporary password with this clinic's portal link (rcrLink).
 * 'Crear cuenta' looks and reads disabled (greyed, aria-disabled) until both are valid, with its reason beside it;
 * pressed anyway (or Enter in a field), the error summary lists what is missing and the first field takes the focus.
 * Success: modal 'Cuenta creada', then the user list. Failure: a toast with the server's message, except a RUT that
 * already has an account, which is an error on the Rut field (issue 33). A disabled 'Crear cuenta' says why.
 */
const createFieldLabels = { rut: "Rut", email: "Correo electrónico" } as const;
const createFieldId = (name: keyof typeof createFieldLabels) => `crear-${name}`;

export default function CreateUserPage() {
  const navigate = useNavigate();
  const viewerIsAdmin = usePortalType() === String(Role.admin);
  const form = useForm(createUserFormSchema, { rut: "", email: "" });
  const [roleType, setRoleType] = useState<RoleType>(Role.patient);
  // Issue 33: a RUT that already has an account is an error on the Rut field, kept until the Rut changes.
  const [rutTaken, setRutTaken] = useState<{ rut: string; message: string } | null>(null);

  const create = useCreateUser({
    onSuccess: ({ user }) => {
      void showModal({
        title: userScreenMessages.created,
        body: `Se envió una contraseña temporal al correo ${user.email}. Deberá cambiarla en su primer ingreso.`,
        buttons: ["Entendido"],
        navigateTo: ADMIN_USERS_PATH,
      });
    },
    onError: (error, input) => {
      const message = duplicateRutMessage(error);
      if (message) {
        setRutTaken({ rut: input.rut, message });
        errorSummary.stop();
      }
    },
  });
  const rutField = form.field("rut", formatRutInput);
  const rutRefusal = rutTaken && rutTaken.rut === form.values.rut.trim() ? rutTaken.message : undefined;
  const rutError = rutRefusal ?? rutField.error;
  const errorSummary = useErrorSummary(createFieldLabels, createFieldId, { rut: rutRefusal ?? form.errors.rut, email: form.errors.email });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || rutRefusal) return errorSummary.stop();
    if (create.isPending) return;
    create.mutate({
      rut: form.values.rut.trim(),
      email: form.values.email.trim(),
      roleType: viewerIsAdmin ? roleType : Role.patient,
      rcrLink: currentPortalLink(),
    });
  }

  return (
    <div className="users-page">
      <PageTitle title="Crear cuenta de usuario" />
      <Card title="Datos personales" className="users-card users-card--narrow">
        <form className="form" onSubmit={submit} noValidate aria-label="Crear cuenta de usuario">
          {errorSummary.summary}
          <p className="form__intro">
            Se enviará una contraseña temporal al correo indicado. El usuario deberá cambiarla en su primer ingreso.
          </p>
          <div className="form__grid">
            <TextField
              label={createFieldLabels.rut}
              placeholder="12.345.678-5"
              inputMode="text"
              autoComplete="off"
              maxLength={12}
              {...rutField}
              id={createFieldId("rut")}
              error={rutError}
            />
            <TextField
              type="email"
              inputMode="email"
              autoComplete="off"
              placeholder="nombre@correo.cl"
              {...form.field("email")}
              id={createFieldId("email")}
              label={createFieldLabels.email}
            />
            {viewerIsAdmin ? <RoleSelect value={roleType} onChange={setRoleType} /> : null}
          </div>
          <div className="form__actions">
            <Button variant="secondary" onClick={() => void navigate(ADMIN_USERS_PATH)}>
              Volver
            </Button>
            <Button
              type="submit"
              aria-disabled={!form.isValid || undefined}
              disabled={create.isPending}
              aria-describedby={form.isValid ? undefined : "crear-motivo"}
            >
              Crear cuenta
            </Button>
          </div>
          {!form.isValid ? (
            <p id="crear-motivo" className="form__reason">
              Para crear la cuenta, ingrese un Rut y un correo electrónico válidos.
            </p>
          ) : null}
        </form>
      </Card>
    </div>
  );
}
