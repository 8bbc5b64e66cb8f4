import { useState } from "react";
import { Link } from "react-router";
import { isApplicableField, requestFieldLabels, rightsRequestMessages } from "@contract/data-rights.ts";
import type { RightsRequestDto } from "@contract/data-rights.schemas.ts";
import { formatRut } from "@contract/rut.ts";
import { Dialog } from "../../components/ui/Dialog.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { errorMessage } from "../../lib/trpc.ts";
import { updateFailed, useUpdateRequest } from "./api/data-rights.api.ts";

/**
 * 'Resolver' of a rectification (issue 45 §5): the dialog names the patient (with a link to their record), the datum and
 * the value asked for. The RUT or a personal datum is changed in the portal on 'Sí, aplicar el cambio'; 'Otro dato'
 * lives outside the portal, so staff write what they corrected and where. A refusal (an invalid value, a RUT another
 * account has) is told here, and the request stays open to be rejected with its reason.
 */
export function ResolveRectificationDialog({
  request,
  onClose,
  onResolved,
}: {
  request: RightsRequestDto;
  onClose(): void;
  onResolved(): void;
}) {
  const [note, setNote] = useState("");
  const [noteMissing, setNoteMissing] = useState(false);
  const update = useUpdateRequest({ onSuccess: onResolved }, { toast: false });
  const label = requestFieldLabels[request.field ?? ""] ?? "Dato";
  const applicable = isApplicableField(request.field);
  const refused = update.isError ? errorMessage(update.error, updateFailed) : null;
  const resolve = () => {
    if (applicable) return update.mutate({ id: request.id, status: "resolved", applyChange: true });
    if (!note.trim()) return setNoteMissing(true);
    update.mutate({ id: request.id, status: "resolved", reason: note });
  };
  return (
    <Dialog className="modal" labelledBy="resolve-request-title" describedBy="resolve-request-body" onClose={onClose}>
      <h2 id="resolve-request-title" className="modal__title">
        ¿Resolver la solicitud N° {request.id}?
      </h2>
      <div id="resolve-request-body" className="modal__body">
        <dl className="resolve-request__facts">
          <dt>Paciente</dt>
          <dd>
            {request.patient.name} · {formatRut(request.patient.rut)}{" "}
            <Link to={`/admin/edit-user?userId=${request.patient.id}`}>Ver ficha del paciente</Link>
          </dd>
          <dt>Dato</dt>
          <dd>{label}</dd>
          <dt>Valor pedido</dt>
          <dd>{request.correctValue}</dd>
        </dl>
        {applicable ? (
          <p>
            Al confirmar, el dato {label} del paciente cambia a «{request.correctValue}» en el portal y se le avisa por correo. Si el valor
            no corresponde, vuelva y use 'Rechazar…' con el motivo.
          </p>
        ) : (
          <p>
            Este dato no se cambia desde el portal. Corríjalo donde corresponda e indique qué se hizo: el paciente lo leerá en el correo.
          </p>
        )}
      </div>
      {applicable ? null : (
        <TextField
          label="Qué se corrigió y dónde"
          value={note}
          maxLength={1000}
          onChange={(event) => {
            setNote(event.target.value);
            setNoteMissing(false);
          }}
          error={noteMissing ? rightsRequestMessages.noteRequired : undefined}
        />
      )}
      {refused ? (
        <p className="resolve-request__refusal" role="alert">
          {refused}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Volver
        </button>
        <button type="button" className="btn btn--primary" disabled={update.isPending} aria-busy={update.isPending} onClick={resolve}>
          {applicable ? "Sí, aplicar el cambio" : "Resolver"}
        </button>
      </div>
    </Dialog>
  );
}
