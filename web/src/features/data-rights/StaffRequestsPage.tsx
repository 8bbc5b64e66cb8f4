import { useState } from "react";
import {
  RIGHTS_REQUEST_STATUSES,
  requestFieldLabels,
  rightsRequestKindLabels,
  rightsRequestMessages,
  rightsRequestStatusLabels,
} from "@contract/data-rights.ts";
import type { RightsRequestDto } from "@contract/data-rights.schemas.ts";
import { formatRut } from "@contract/rut.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { asWritten, useListUrlState } from "../../lib/list-url-state.ts";
import { showToast } from "../../lib/overlay-store.ts";
import { useStaffRequests, useUpdateRequest } from "./api/data-rights.api.ts";
import { chileDayOf, RequestStatus } from "./RequestStatus.tsx";
import { ResolveRectificationDialog } from "./ResolveRectificationDialog.tsx";
import "./data-rights.css";

const statusOptions = [
  { value: "", label: "Todos" },
  ...RIGHTS_REQUEST_STATUSES.map((status) => ({ value: status, label: rightsRequestStatusLabels[status] })),
];
const isOpen = (request: RightsRequestDto) => request.status === "received" || request.status === "in_progress";

function RequestActions({ request, onChanged }: { request: RightsRequestDto; onChanged(): void }) {
  const [reason, setReason] = useState("");
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const changed = () => {
    showToast("Solicitud actualizada. Se avisó al paciente por correo.");
    onChanged();
  };
  const update = useUpdateRequest({ onSuccess: changed });
  if (!isOpen(request)) return null;
  const resolveLabel = request.kind === "account_closure" ? "Resolver y cerrar la cuenta" : "Resolver";
  return (
    <div className="rights-request__actions">
      {request.status === "received" ? (
        <Button variant="secondary" disabled={update.isPending} onClick={() => update.mutate({ id: request.id, status: "in_progress" })}>
          Marcar en curso
        </Button>
      ) : null}
      <Button
        disabled={update.isPending}
        onClick={() => (request.kind === "rectification" ? setConfirming(true) : update.mutate({ id: request.id, status: "resolved" }))}
      >
        {resolveLabel}
      </Button>
      {confirming ? (
        <ResolveRectificationDialog
          request={request}
          onClose={() => setConfirming(false)}
          onResolved={() => {
            setConfirming(false);
            changed();
          }}
        />
      ) : null}
      {rejecting ? (
        <form
          className="rights-request__reject"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate({ id: request.id, status: "rejected", reason });
          }}
        >
          <TextField
            label="Motivo del rechazo"
            value={reason}
            maxLength={1000}
            onChange={(event) => setReason(event.target.value)}
            error={update.isError && !reason.trim() ? rightsRequestMessages.reasonRequired : undefined}
          />
          <Button type="submit" variant="danger" disabled={update.isPending}>
            Rechazar
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setRejecting(false);
              setReason("");
              update.reset();
            }}
          >
            Cancelar
          </Button>
        </form>
      ) : (
        <Button variant="secondary" onClick={() => setRejecting(true)}>
          Rechazar…
        </Button>
      )}
    </div>
  );
}

/**
 * /admin/rights-requests, 'Solicitudes de pacientes' (issue 28): the patients' requests nearest deadline first (30
 * calendar days, overdue marked), filtered by state; executives see only patients of their clinics. Each change mails
 * the patient.
 */
export default function StaffRequestsPage() {
  const { page, values, show } = useListUrlState({ estado: asWritten });
  const list = useStaffRequests(values.estado, page);
  const requests = list.data?.requests ?? [];
  return (
    <div className="data-rights-page">
      <PageTitle title="Solicitudes de pacientes" />
      <Card className="data-rights">
        <SelectField label="Estado" value={values.estado} options={statusOptions} onChange={(estado) => show({ estado, page: 1 })} />
        {list.isError ? <Banner>{rightsRequestMessages.listFailed}</Banner> : null}
        {list.isSuccess && requests.length === 0 ? <p>No hay solicitudes.</p> : null}
        <ul className="rights-requests__list" aria-label="Solicitudes de pacientes">
          {requests.map((request) => (
            <li key={request.id} className={`rights-request${request.overdue ? " rights-request--overdue" : ""}`}>
              <div>
                <strong>
                  N° {request.id} · {rightsRequestKindLabels[request.kind]}
                </strong>
              </div>
              <div>
                {request.patient.name} · {formatRut(request.patient.rut)}
              </div>
              {request.field ? (
                <div>
                  {requestFieldLabels[request.field] ?? request.field}: {request.correctValue}
                </div>
              ) : null}
              {request.details ? <div>Detalle: {request.details}</div> : null}
              <div>Recibida el {chileDayOf(request.receivedAt)}</div>
              <RequestStatus request={request} />
              {request.rejectionReason ? <div>Motivo: {request.rejectionReason}</div> : null}
              {request.resolution ? <div>{request.resolution}</div> : null}
              <RequestActions request={request} onChanged={() => void list.refetch()} />
            </li>
          ))}
        </ul>
        {list.data && list.data.total > 20 ? (
          <Paginator page={page} total={list.data.total} limit={20} onPageChange={(next) => show({ page: next })} />
        ) : null}
      </Card>
    </div>
  );
}
