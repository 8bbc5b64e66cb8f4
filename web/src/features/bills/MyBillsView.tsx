import { useState, type ReactNode } from "react";
import type { BillDto } from "@contract/bills.dto.ts";
import { DEFAULT_SORT, type PatientSortField } from "@contract/bills.lists.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { PAGE_SIZE } from "../../components/ui/paginator-pages.ts";
import { useIsMobile } from "../../lib/use-media-query.ts";
import { useMyBills, usePendingBills } from "./api/bills.api.ts";
import { AttachmentsModal } from "./AttachmentsModal.tsx";
import { formatUtcDay } from "../../lib/dates.ts";
import { formatClp } from "../../lib/money.ts";
import { attachmentsText, billScreenMessages, totalToPayText } from "./bill-format.ts";
import { BillStatus } from "./BillStatus.tsx";
import type { SortState } from "../../lib/list-url-state.ts";
import { SortHeader } from "./SortHeader.tsx";
import "./bills.css";

export interface MyBillsViewProps {
  /** The content of the 'Pagar' cell of an unpaid bill (a paid bill shows no pay action): the payment feature's button. */
  renderPayAction: (bill: BillDto) => ReactNode;
  /** What a paid bill offers in that cell besides saying it is paid (the payment feature's 'Comprobante'). */
  renderPaidAction?: (bill: BillDto) => ReactNode;
  /** Shown under the bills (the payment feature's 'Historial de pagos'). */
  footer?: ReactNode;
}

function PayCell({
  bill,
  render,
  renderPaid,
}: {
  bill: BillDto;
  render: (bill: BillDto) => ReactNode;
  renderPaid?: (bill: BillDto) => ReactNode;
}) {
  if (bill.isPaid)
    return (
      <div className="bill-pay__paid">
        <span className="bill-pay__done">{billScreenMessages.alreadyPaid}</span>
        {renderPaid?.(bill)}
      </div>
    );
  return <>{render(bill)}</>;
}

/**
 * 'Cuentas hospitalarias' of the patient (SPEC §2 My bills): Fecha, Monto, Estado, Adjuntos, Pagar; sort by date,
 * amount and status (default createAccountIdDate DESC); 10 a page; cards under 1024 px. The list query is
 * `bills.mine` (invalidate it to reload after a payment).
 */
export function MyBillsView({ renderPayAction, renderPaidAction, footer }: MyBillsViewProps) {
  const isMobile = useIsMobile();
  const [sort, setSort] = useState<SortState<PatientSortField>>({ orderBy: DEFAULT_SORT.orderBy, direction: DEFAULT_SORT.direction });
  const [page, setPage] = useState(1);
  const [attachmentsOf, setAttachmentsOf] = useState<number | null>(null);
  const list = useMyBills({ page, ...sort });
  const pending = usePendingBills();

  // 'Total por pagar' goes above the list: the list waits for it (both are asked at once), or it would push the list
  // down on arriving second (issue 26, layout shift).
  const shown = pending.isPending ? undefined : list.data;
  const bills = shown?.accounts ?? [];
  const changeSort = (next: SortState<PatientSortField>) => {
    setSort(next);
    setPage(1);
  };
  const attachmentsButton = (bill: BillDto) => (
    <Button
      variant="secondary"
      onClick={() => setAttachmentsOf(bill.id)}
      aria-label={`${attachmentsText(bill)} de la cuenta ${bill.accountCode}`}
    >
      {attachmentsText(bill)}
    </Button>
  );

  return (
    <div className="bills-page">
      <PageTitle title="Cuentas hospitalarias" />
      <Card>
        {/* Not a live region: Chromium hands text at rest in one to the screen reader again each time a modal closes
            (Orca repeated the total after 'Adjuntos' and after the payment's result). */}
        {pending.data && pending.data.count > 0 && !list.isError ? (
          <p className="bills-total">{totalToPayText(pending.data.total)}</p>
        ) : null}
        {list.isError ? (
          <LoadFailure
            service="cuentas hospitalarias"
            toast={billScreenMessages.listFailed}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : !shown ? (
          // Nothing of the list until it and the total are here, so neither pushes the other down (issue 26). Not a
          // live region: arriving here, a screen reader says the screen's name and nothing else (issue 29).
          <p className="bills-empty">Cargando cuentas hospitalarias…</p>
        ) : isMobile ? (
          <div className="bill-cards">
            <div className="bill-cards__sort" role="group" aria-label="Ordenar">
              {(
                [
                  ["createAccountIdDate", "Fecha"],
                  ["amount", "Monto"],
                  ["isPaid", "Estado"],
                ] as const
              ).map(([field, label]) => (
                <button
                  key={field}
                  type="button"
                  className={`sort-header${sort.orderBy === field ? " sort-header--active" : ""}`}
                  onClick={() =>
                    changeSort({
                      orderBy: field,
                      direction: sort.orderBy === field && sort.direction === "DESC" ? "ASC" : sort.orderBy === field ? "DESC" : "ASC",
                    })
                  }
                >
                  {label} <span aria-hidden="true">{sort.orderBy === field ? (sort.direction === "ASC" ? "▲" : "▼") : "↕"}</span>
                </button>
              ))}
            </div>
            {bills.map((bill) => (
              <article key={bill.id} className="bill-card" aria-label={`Cuenta ${bill.accountCode}`} data-account-code={bill.accountCode}>
                <dl>
                  <dt>N° de cuenta</dt>
                  <dd>{bill.accountCode}</dd>
                  <dt>Fecha</dt>
                  <dd>{formatUtcDay(bill.createAccountIdDate)}</dd>
                  <dt>Monto</dt>
                  <dd>{formatClp(bill.amount)}</dd>
                  <dt>Estado</dt>
                  <dd>
                    <BillStatus isPaid={bill.isPaid} />
                  </dd>
                </dl>
                <div className="bill-card__actions">
                  {attachmentsButton(bill)}
                  <PayCell bill={bill} render={renderPayAction} renderPaid={renderPaidAction} />
                </div>
              </article>
            ))}
          </div>
        ) : (
          <div className="bills-table__scroller" tabIndex={0} role="region" aria-label="Cuentas hospitalarias, tabla desplazable">
            <table className="data-table bills-table" aria-label="Cuentas hospitalarias">
              <thead>
                <tr>
                  <SortHeader label="Fecha" field="createAccountIdDate" sort={sort} onSort={changeSort} />
                  <SortHeader label="Monto" field="amount" sort={sort} onSort={changeSort} />
                  <SortHeader label="Estado" field="isPaid" sort={sort} onSort={changeSort} />
                  <th scope="col">Adjuntos</th>
                  <th scope="col">Pagar</th>
                </tr>
              </thead>
              <tbody>
                {bills.map((bill) => (
                  <tr key={bill.id} data-account-code={bill.accountCode}>
                    <td className="bills-table__num">
                      {formatUtcDay(bill.createAccountIdDate)}
                      <div className="bills-table__code">N° de cuenta {bill.accountCode}</div>
                    </td>
                    <td className="bills-table__num">{formatClp(bill.amount)}</td>
                    <td>
                      <BillStatus isPaid={bill.isPaid} />
                    </td>
                    <td>{attachmentsButton(bill)}</td>
                    <td>
                      <PayCell bill={bill} render={renderPayAction} renderPaid={renderPaidAction} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {shown && bills.length === 0 ? <p className="bills-empty">{billScreenMessages.none}</p> : null}
        {shown && shown.total > 0 ? (
          <Paginator page={page} total={shown.total} limit={PAGE_SIZE} onPageChange={(next) => next !== page && setPage(next)} />
        ) : null}
      </Card>
      {/* Under the list once it is shown: before, it was pushed down when the bills arrived (issue 26). */}
      {shown || list.isError ? footer : null}
      {attachmentsOf !== null ? <AttachmentsModal billId={attachmentsOf} onClose={() => setAttachmentsOf(null)} /> : null}
    </div>
  );
}
