import { useState } from "react";
import {
  RECTIFIABLE_FIELDS,
  requestFieldLabels,
  rightsRequestKindLabels,
  rightsRequestMessages,
  type RightsRequestKindName,
} from "@contract/data-rights.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { errorMessage } from "../../lib/trpc.ts";
import { useForm } from "../../lib/use-form.ts";
import { requestsFailed, useCreateRequest, useOwnRequests } from "./api/data-rights.api.ts";
import { chileDayOf, RequestStatus } from "./RequestStatus.tsx";

const kindOptions = [
  { value: "rectification", label: rightsRequestKindLabels.rectification },
  { value: "email_opposition", label: rightsRequestKindLabels.email_opposition },
  { value: "account_closure", label: rightsRequestKindLabels.account_closure },
];
const fieldOptions = [
  { value: "", label: "Seleccione el dato" },
  ...RECTIFIABLE_FIELDS.map((field) => ({ value: field, label: requestFieldLabels[field]! })),
];
const empty = { kind: "rectification", field: "", correctValue: "", details: "" };

/**
 * 'Solicitudes' (issue 28): the patient asks the clinic to correct a field they cannot edit, to stop e-mail notices, or
 * to close their portal account; their requests with state and legal deadline below. The clinic answers by mail.
 * A request sent is said in green above the form, which starts again blank, with no error (issue 45 §4).
 */
export function RequestsSection() {
  const requests = useOwnRequests();
  // A new key after each request sent starts the form (and its touched state) from scratch.
  const [round, setRound] = useState(0);
  const [sent, setSent] = useState<number | null>(null);

  return (
    <div className="rights-requests">
      {sent !== null ? (
        <Banner tone="success" onClose={() => setSent(null)}>
          {rightsRequestMessages.sent(sent)}
        </Banner>
      ) : null}
      <NewRequestForm
        key={round}
        onStart={() => setSent(null)}
        onSent={(id) => {
          setSent(id);
          setRound((value) => value + 1);
          void requests.refetch();
        }}
      />

      <h3 className="rights-requests__title">Sus solicitudes</h3>
      {requests.isError ? (
        <Banner>
          {requestsFailed}{" "}
          <Button variant="link" onClick={() => void requests.refetch()}>
            Reintentar
          </Button>
        </Banner>
      ) : null}
      {requests.isSuccess && requests.data.length === 0 ? <p>No ha enviado solicitudes.</p> : null}
      {requests.data && requests.data.length > 0 ? (
        <ul className="rights-requests__list" aria-label="Sus solicitudes">
          {requests.data.map((request) => (
            <li key={request.id} className="rights-request">
              <div>
                <strong>
                  N° {request.id} · {rightsRequestKindLabels[request.kind]}
                </strong>
              </div>
              {request.field ? (
                <div>
                  {requestFieldLabels[request.field] ?? request.field}: {request.correctValue}
                </div>
              ) : null}
              <div>Recibida el {chileDayOf(request.receivedAt)}</div>
              <RequestStatus request={request} />
              {request.rejectionReason ? <div>Motivo: {request.rejectionReason}</div> : null}
              {request.resolution ? <div>{request.resolution}</div> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

// The form's rules load when a field first gets the focus (useForm's lazy schema): 'Mis datos' shows this section
// without zod (issue 46).
const requestSchema = () => import("@contract/data-rights.schemas.ts").then((contract) => contract.ZCreateRightsRequest);

function NewRequestForm({ onStart, onSent }: { onStart(): void; onSent(id: number): void }) {
  const form = useForm(requestSchema, empty);
  const [serverError, setServerError] = useState<string | null>(null);
  const create = useCreateRequest({
    onSuccess: (created) => onSent(created.id),
    onError: (error) => setServerError(errorMessage(error, "No fue posible enviar la solicitud, por favor intente más tarde")),
  });
  const kind = form.values.kind as RightsRequestKindName;

  return (
    <form
      className="rights-requests__form"
      aria-label="Nueva solicitud"
      noValidate
      onSubmit={form.submit((values) => {
        onStart();
        setServerError(null);
        void requestSchema().then((schema) => create.mutate(schema.parse(values)));
      })}
    >
      <SelectField
        label="¿Qué solicita?"
        value={form.values.kind}
        options={kindOptions}
        onChange={(value) => form.setValue("kind", value)}
      />
      {kind === "rectification" ? (
        <>
          <SelectField
            label="Dato incorrecto"
            value={form.values.field}
            options={fieldOptions}
            onChange={(value) => form.setValue("field", value)}
            hint="Sus nombres, fecha de nacimiento, correo y teléfono los puede cambiar usted mismo en 'Datos personales'."
          />
          {form.field("field").error ? (
            <p className="field__error" role="alert">
              {form.field("field").error}
            </p>
          ) : null}
          <TextField label="Valor correcto" maxLength={200} {...form.field("correctValue")} />
        </>
      ) : null}
      {kind === "email_opposition" ? (
        <p className="rights-requests__note">
          Dejará de recibir avisos por correo electrónico (por ejemplo, de resultados disponibles). Seguirá recibiendo los correos que usted
          mismo pida, como la recuperación de contraseña.
        </p>
      ) : null}
      {kind === "account_closure" ? (
        <p className="rights-requests__note rights-requests__note--warning">
          Al cerrar su cuenta ya no podrá ingresar al portal y borraremos del portal sus datos de contacto (correo y teléfono). Su ficha
          clínica se mantiene en la clínica, como exige la ley (Ley N° 20.584), al igual que el registro de sus pagos y de los accesos a sus
          datos.
        </p>
      ) : null}
      <TextField label="Detalle (opcional)" maxLength={1000} {...form.field("details")} />
      {serverError ? <Banner onClose={() => setServerError(null)}>{serverError}</Banner> : null}
      <Button type="submit" disabled={create.isPending}>
        Enviar solicitud
      </Button>
    </form>
  );
}
