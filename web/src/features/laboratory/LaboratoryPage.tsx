import { Fragment, useState, type ReactNode } from "react";
import type { LabOrderDto } from "@contract/results.dto.ts";
import { useActionFailures } from "../../components/ui/ActionFailure.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { DateRangeFilter, type DayRange } from "../../components/ui/DateRangeFilter.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { RefreshButton } from "../../components/ui/RefreshButton.tsx";
import { ResultStatusDot } from "../../components/ui/ResultStatusDot.tsx";
import "../../components/ui/results.css";
import { useIsMobile } from "../../lib/use-media-query.ts";
import { formatDay, lastTwelveMonths } from "../../lib/dates.ts";
import { openReport, RESULTS_ERROR_MESSAGE, useMailReport } from "../../lib/results.ts";
import { useLabOrders } from "./api/laboratory.api.ts";
import { LabOrderProcedures } from "./LabOrderProcedures.tsx";

/** Issue 33: what 'Sin informe' means, in the legend. */
const NO_REPORT_LEGEND = "Sin informe: el informe aún no está disponible; aparecerá aquí cuando la clínica lo emita.";

const columns = ["Fecha", "Prestación", "Estado", "Informe", "Enviar por email"] as const;

interface RowActions {
  expanded: ReadonlySet<string>;
  toggle(orderNumber: string): void;
  mail(order: LabOrderDto): void;
  /** The order's failed action, told beside its buttons, or null. */
  failureOf(order: LabOrderDto): ReactNode;
}

function ExpandToggle({ order, expanded, toggle }: { order: LabOrderDto } & Pick<RowActions, "expanded" | "toggle">) {
  const open = expanded.has(order.orderNumber);
  return (
    <button type="button" className="results-table__toggle" aria-expanded={open} onClick={() => toggle(order.orderNumber)}>
      <span className="results-table__chevron" aria-hidden="true">
        ▸
      </span>
      {formatDay(order.date)}
      <span className="visually-hidden">
        , {open ? "Ocultar" : "Ver"} prestaciones de la orden {order.orderNumber}
      </span>
    </button>
  );
}

function ReportButton({ order }: { order: LabOrderDto }) {
  return (
    <Button variant="secondary" disabled={!order.urlPDF} onClick={() => order.urlPDF && openReport(order.urlPDF)}>
      {order.urlPDF ? "Ver informe" : "Sin informe"}
      <span className="visually-hidden"> de la orden {order.orderNumber}</span>
    </Button>
  );
}

function MailButton({ order, mail }: { order: LabOrderDto; mail(order: LabOrderDto): void }) {
  return (
    <Button variant="secondary" disabled={!order.urlPDF} onClick={() => mail(order)}>
      Enviar<span className="visually-hidden"> por email el informe de la orden {order.orderNumber}</span>
    </Button>
  );
}

function LabOrdersTable({ orders, expanded, toggle, mail, failureOf }: { orders: LabOrderDto[] } & RowActions) {
  return (
    <table className="data-table results-table" aria-label="Órdenes de laboratorio">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <Fragment key={order.orderNumber}>
            <tr>
              <td>
                <ExpandToggle order={order} expanded={expanded} toggle={toggle} />
              </td>
              <td>
                {order.prestacion}
                <div className="result-card__label">Orden N° {order.orderNumber}</div>
              </td>
              <td>
                <ResultStatusDot status={order.status} />
              </td>
              <td>
                <ReportButton order={order} />
              </td>
              <td>
                <MailButton order={order} mail={mail} />
              </td>
            </tr>
            {failureOf(order) ? (
              <tr className="results-table__detail">
                <td colSpan={columns.length}>{failureOf(order)}</td>
              </tr>
            ) : null}
            {expanded.has(order.orderNumber) ? (
              <tr className="results-table__detail">
                <td colSpan={columns.length}>
                  <LabOrderProcedures orderNumber={order.orderNumber} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

function LabOrderCards({ orders, expanded, toggle, mail, failureOf }: { orders: LabOrderDto[] } & RowActions) {
  return (
    <div className="result-cards" aria-label="Órdenes de laboratorio">
      {orders.map((order) => (
        <article key={order.orderNumber} className="result-card">
          <div className="result-card__row">
            <ExpandToggle order={order} expanded={expanded} toggle={toggle} />
            <ResultStatusDot status={order.status} />
          </div>
          <div>
            <strong>{order.prestacion}</strong>
            <div className="result-card__label">Orden N° {order.orderNumber}</div>
          </div>
          <div className="result-card__actions">
            <ReportButton order={order} />
            <MailButton order={order} mail={mail} />
          </div>
          {failureOf(order)}
          {expanded.has(order.orderNumber) ? (
            <div className="result-card__detail">
              <LabOrderProcedures orderNumber={order.orderNumber} />
            </div>
          ) : null}
        </article>
      ))}
    </div>
  );
}

/**
 * /dashboard/laboratory (SPEC §2 'Exámenes de laboratorio'): Desde/Hasta (12 months back to today), the orders as a
 * table (cards under 1024 px), rows that open to their procedures, the legend and the 48-business-hours help.
 */
export default function LaboratoryPage() {
  const isMobile = useIsMobile();
  const [range, setRange] = useState<DayRange>(() => lastTwelveMonths());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const mail = useMailReport();
  const { query: orders, refresh } = useLabOrders(range);
  // 'Buscar' on the same dates asks the server again; 'Actualizar' also skips its copy of the laboratory's answer.
  const search = (next: DayRange) => (next.from === range.from && next.to === range.to ? void orders.refetch() : setRange(next));

  const toggle = (orderNumber: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(orderNumber)) next.add(orderNumber);
      return next;
    });
  const rows = orders.data ?? [];
  const failures = useActionFailures(RESULTS_ERROR_MESSAGE);
  const actions: RowActions = {
    expanded,
    toggle,
    mail: (order) => {
      const link = order.urlPDF;
      if (!link) return;
      void failures.attempt(order.orderNumber, `No se pudo enviar a su correo el informe de la orden ${order.orderNumber}.`, () =>
        mail(link),
      );
    },
    failureOf: (order) => failures.messageFor(order.orderNumber),
  };

  return (
    <div className="results-page">
      <PageTitle title="Exámenes de laboratorio" subtitle="Resultados de laboratorio" />
      <Card>
        <DateRangeFilter initial={range} onSearch={search} />
        <RefreshButton key={`${range.from}/${range.to}`} onRefresh={refresh} busy={orders.isFetching} />
        {orders.isError ? (
          <LoadFailure
            service="laboratorio"
            toast={RESULTS_ERROR_MESSAGE}
            onRetry={() => void orders.refetch()}
            retrying={orders.isFetching}
          />
        ) : orders.isPending ? (
          // Holds the list's room while the provider answers, so the legend below does not jump down (issue 26). Not
          // a live region: arriving here, a screen reader says the screen's name and nothing else (issue 29).
          <p className="results-empty results-loading">Cargando órdenes de laboratorio…</p>
        ) : isMobile ? (
          <LabOrderCards orders={rows} {...actions} />
        ) : (
          <LabOrdersTable orders={rows} {...actions} />
        )}
        {orders.isSuccess && rows.length === 0 ? (
          <p className="results-empty">No hay órdenes de laboratorio en el rango seleccionado.</p>
        ) : null}
        <div className="results-legend" aria-label="Leyenda">
          <ResultStatusDot status="Validada" label="Validado" />
          <ResultStatusDot status="Pendiente Validación" label="Pendiente" />
          <span className="results-legend__note">{NO_REPORT_LEGEND}</span>
        </div>
        <p className="results-help">
          Si un examen no aparece 48 horas hábiles después de realizado, consulte en la clínica indicando el número de orden.
        </p>
      </Card>
    </div>
  );
}
