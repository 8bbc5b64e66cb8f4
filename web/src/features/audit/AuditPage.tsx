import { useState, type FormEvent } from "react";
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE, auditMessages, ZAuditFilters, type AuditFilters } from "@contract/audit.schemas.ts";
import { formatRut } from "@contract/rut.ts";
import { roleLabels, type RoleType } from "@contract/roles.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { formatChileDateTimeSeconds } from "../../lib/dates.ts";
import { auditActionLabel, auditResourceLabel } from "../../lib/audit-labels.ts";
import { asWritten, listQuery, useListUrlState, type TextParams } from "../../lib/list-url-state.ts";
import { showToast } from "../../lib/overlay-store.ts";
import { useForm } from "../../lib/use-form.ts";
import { usePortalType } from "../../lib/session.ts";
import { useAuditEvents } from "./api/audit.api.ts";
import { downloadAuditCsv } from "./download-csv.ts";
import "./audit.css";

const filterKeys = ["actor", "patient", "action", "from", "to"] as const;
type Draft = Record<(typeof filterKeys)[number], string>;

/** The table's columns; on a phone each row is a card that names them beside each value (data-label, audit.css). */
const auditColumns = ["Fecha", "Acción", "Resultado", "Usuario", "Paciente", "Recurso", "IP"] as const;
const outcomeLabels: Record<string, string> = { ok: "Permitido", denied: "Denegado", failed: "Fallido" };
const actionOptions = [
  { value: "", label: "Todas" },
  ...AUDIT_ACTIONS.map((action) => ({ value: action, label: auditActionLabel(action) })),
];
const filterParams: TextParams<keyof Draft> = { actor: asWritten, patient: asWritten, action: asWritten, from: asWritten, to: asWritten };

/** Every filter, '' where not set (what the address keeps). */
function draftOf(filters: AuditFilters): Draft {
  return Object.fromEntries(filterKeys.map((key) => [key, filters[key] ?? ""])) as Draft;
}

/**
 * /admin/audit ('Auditoría', admins only): the audit trail, read-only, filtered by who acted, patient, action and
 * days (Chile's time), newest first, paged, and exported as CSV. Filters and page live in the address.
 */
export default function AuditPage() {
  const portalType = usePortalType();
  if (portalType !== "0") {
    return (
      <div className="audit-page">
        <PageTitle title="Auditoría" />
        <Banner>No tiene permiso para acceder a esta página</Banner>
      </div>
    );
  }
  return <AuditTrail />;
}

function AuditTrail() {
  const { page, values, show } = useListUrlState(filterParams);
  const applied = ZAuditFilters.safeParse(values);
  const filters: AuditFilters = applied.success ? applied.data : {};
  const form = useForm<Draft>(ZAuditFilters, values);
  const draft = form.values;
  // The first problem of the filters, once 'Buscar' was pressed (fields are not marked as left), until closed.
  const error = filterKeys.map((key) => form.field(key).error).find(Boolean);
  const [errorClosed, setErrorClosed] = useState(false);
  const [exporting, setExporting] = useState(false);

  const list = useAuditEvents(filters, page);

  const set = (key: keyof Draft) => (value: string) => form.setValue(key, value);

  const search = form.submit((draft) => show({ ...draftOf(ZAuditFilters.parse(draft)), page: 1 }));
  function onSearch(event: FormEvent) {
    setErrorClosed(false);
    search(event);
  }

  async function onExport() {
    setExporting(true);
    try {
      if (!(await downloadAuditCsv(listQuery({ page: 1, values: draftOf(filters) })))) showToast(auditMessages.exportFailed);
    } catch {
      showToast(auditMessages.exportFailed);
    } finally {
      setExporting(false);
    }
  }

  // A refused filter ('Rut inválido'): the rows of the search before do not answer it, so none are shown (issue 45).
  const refused = Boolean(error);
  const data = refused ? undefined : list.data;
  const events = data?.events ?? [];
  return (
    <div className="audit-page">
      <PageTitle title="Auditoría" />
      <Card>
        <form className="audit-filters" role="search" aria-label="Filtrar auditoría" onSubmit={onSearch} noValidate>
          <TextField
            label="RUT usuario"
            value={draft.actor}
            maxLength={20}
            placeholder="11.111.111-1"
            onChange={(e) => set("actor")(e.target.value)}
          />
          <TextField
            label="RUT paciente"
            value={draft.patient}
            maxLength={20}
            placeholder="12.345.678-5"
            onChange={(e) => set("patient")(e.target.value)}
          />
          <SelectField label="Acción" value={draft.action} options={actionOptions} onChange={set("action")} />
          <TextField label="Desde" type="date" value={draft.from} onChange={(e) => set("from")(e.target.value)} />
          <TextField label="Hasta" type="date" value={draft.to} onChange={(e) => set("to")(e.target.value)} />
          <div className="audit-filters__actions">
            <Button type="submit">Buscar</Button>
            <Button type="button" variant="secondary" disabled={exporting} onClick={() => void onExport()}>
              Exportar CSV
            </Button>
          </div>
        </form>
        {error && !errorClosed ? <Banner onClose={() => setErrorClosed(true)}>{error}</Banner> : null}
        {data ? (
          <p className="audit-total" role="status">
            {data.totalCapped
              ? `Más de ${data.total.toLocaleString("es-CL")} eventos`
              : `${data.total.toLocaleString("es-CL")} ${data.total === 1 ? "evento" : "eventos"}`}
          </p>
        ) : null}
        {refused ? <p className="audit-empty">Corrija el filtro y presione 'Buscar' para ver los eventos.</p> : null}
        <div className="audit-table__scroller" tabIndex={0} role="region" aria-label="Eventos de auditoría, tabla desplazable">
          <table className="data-table data-table--cards audit-table" role="table" aria-label="Eventos de auditoría">
            <thead role="rowgroup">
              <tr role="row">
                {auditColumns.map((column) => (
                  <th key={column} scope="col" role="columnheader">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {events.map((event) => (
                <tr key={event.id} role="row">
                  <td role="cell" data-label="Fecha" className="audit-table__nowrap">
                    {formatChileDateTimeSeconds(event.createdAt)}
                  </td>
                  <td role="cell" data-label="Acción" title={event.action}>
                    {auditActionLabel(event.action)}
                  </td>
                  <td role="cell" data-label="Resultado">
                    {outcomeLabels[event.outcome] ?? event.outcome}
                  </td>
                  <td role="cell" data-label="Usuario">
                    {event.actor ? (
                      // One box for the value: in a phone's card the cell is a row of its name and this.
                      <span>
                        {event.actor.rut ? formatRut(event.actor.rut) : ""} {event.actor.name}
                        {event.actorRole !== null ? (
                          <span className="audit-table__muted"> · {roleLabels[event.actorRole as RoleType] ?? event.actorRole}</span>
                        ) : null}
                      </span>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td role="cell" data-label="Paciente">
                    {event.patient ? `${event.patient.rut ? formatRut(event.patient.rut) : ""} ${event.patient.name}` : "—"}
                  </td>
                  <td role="cell" data-label="Recurso">
                    <span>
                      {auditResourceLabel(event.resource)}
                      {event.resourceId ? <span className="audit-table__muted"> {event.resourceId}</span> : null}
                    </span>
                  </td>
                  <td role="cell" data-label="IP" className="audit-table__nowrap">
                    {event.ip ?? "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!refused && list.isSuccess && events.length === 0 ? <p className="audit-empty">{auditMessages.none}</p> : null}
        {data && data.total > 0 ? (
          <Paginator
            page={page}
            total={data.total}
            limit={AUDIT_PAGE_SIZE}
            onPageChange={(next) => show({ ...draftOf(filters), page: next })}
          />
        ) : null}
      </Card>
    </div>
  );
}
