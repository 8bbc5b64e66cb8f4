import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { formatRut } from "@contract/rut.ts";
import { DEFAULT_SORT, staffSortFields, type StaffSortField } from "@contract/bills.lists.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { PAGE_SIZE } from "../../components/ui/paginator-pages.ts";
import { useStaffBills } from "./api/bills.api.ts";
import { AttachmentsModal } from "./AttachmentsModal.tsx";
import { formatUtcDay } from "../../lib/dates.ts";
import { formatClp } from "../../lib/money.ts";
import { attachmentsText, billScreenMessages } from "./bill-format.ts";
import { BillStatus } from "./BillStatus.tsx";
import { asWritten, useListUrlState, type SortState } from "../../lib/list-url-state.ts";
import { SortHeader } from "./SortHeader.tsx";
import "./bills.css";

export const EDIT_BILL_PATH = "/admin/edit-bills";
export const editBillPath = (accountCode: string, accountId: number) =>
  `${EDIT_BILL_PATH}?accountCode=${encodeURIComponent(accountCode)}&accountId=${accountId}`;

/**
 * /admin/admin-bills (SPEC §2 Admin bills): search by account code, RUT or name, 'Cargar cuenta a Paciente', the
 * sortable table and the paginator. Page, search and sort live in the address so returning from a bill shows the
 * same list.
 */
export default function AdminBillsPage() {
  const navigate = useNavigate();
  const { page, values, sort, show } = useListUrlState({ buscar: asWritten }, { allowed: staffSortFields, fallback: DEFAULT_SORT });
  const search = values.buscar;
  const [draft, setDraft] = useState(search);
  const [attachmentsOf, setAttachmentsOf] = useState<number | null>(null);

  const list = useStaffBills({ page, search, ...sort });

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    show({ buscar: draft.trim(), page: 1 });
  };
  const onSort = (next: SortState<StaffSortField>) => show({ sort: next, page: 1 });
  const bills = list.data?.data ?? [];

  return (
    <div className="bills-page">
      <PageTitle
        title="Cuentas hospitalarias"
        actions={<Button onClick={() => void navigate(EDIT_BILL_PATH)}>Cargar cuenta a Paciente</Button>}
      />
      <Card>
        <form className="bills-search" role="search" onSubmit={onSearch}>
          <label className="field__label" htmlFor="bills-search">
            Buscar
          </label>
          <div className="bills-search__row">
            <input
              id="bills-search"
              className="field__input"
              value={draft}
              maxLength={100}
              placeholder="ID Cuenta, RUT, Nombre"
              onChange={(event) => setDraft(event.target.value)}
            />
            <Button type="submit">Buscar</Button>
          </div>
        </form>
        {list.isError ? (
          <LoadFailure
            service="cuentas hospitalarias"
            toast={billScreenMessages.listFailed}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : null}
        <div
          className="bills-table__scroller"
          tabIndex={0}
          role="region"
          aria-label="Cuentas hospitalarias, tabla desplazable"
          hidden={list.isError}
        >
          <table className="data-table bills-table" aria-label="Cuentas hospitalarias">
            <thead>
              <tr>
                <SortHeader label="ID Cuenta" field="accountCode" sort={sort} onSort={onSort} />
                <SortHeader label="Fecha" field="createAccountIdDate" sort={sort} onSort={onSort} />
                <SortHeader label="Monto" field="amount" sort={sort} onSort={onSort} />
                <SortHeader label="RUT" field="rut" sort={sort} onSort={onSort} />
                <SortHeader label="Nombre" field="firstName" sort={sort} onSort={onSort} />
                <SortHeader label="Estado" field="isPaid" sort={sort} onSort={onSort} />
                <th scope="col">Adjuntos</th>
                <th scope="col">Modificar</th>
              </tr>
            </thead>
            <tbody>
              {bills.map((bill) => (
                <tr key={bill.id} data-account-code={bill.accountCode}>
                  <td className="bills-table__num">{bill.accountCode}</td>
                  <td className="bills-table__num">{formatUtcDay(bill.createAccountIdDate)}</td>
                  <td className="bills-table__num">{formatClp(bill.amount)}</td>
                  <td className="bills-table__num">{formatRut(bill.rut)}</td>
                  <td>{[bill.firstName, bill.lastName].filter(Boolean).join(" ") || "—"}</td>
                  <td>
                    <BillStatus isPaid={bill.isPaid} />
                  </td>
                  <td>
                    <Button
                      variant="secondary"
                      onClick={() => setAttachmentsOf(bill.id)}
                      aria-label={`${attachmentsText(bill)} de la cuenta ${bill.accountCode}`}
                    >
                      {attachmentsText(bill)}
                    </Button>
                  </td>
                  <td>
                    <Button
                      variant="secondary"
                      onClick={() => void navigate(editBillPath(bill.accountCode, bill.id))}
                      aria-label={`Modificar cuenta ${bill.accountCode}`}
                    >
                      Modificar
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.isSuccess && bills.length === 0 ? <p className="bills-empty">{billScreenMessages.none}</p> : null}
        {list.data && list.data.total > 0 ? (
          <Paginator page={page} total={list.data.total} limit={PAGE_SIZE} onPageChange={(next) => show({ page: next })} />
        ) : null}
      </Card>
      {attachmentsOf !== null ? <AttachmentsModal billId={attachmentsOf} onClose={() => setAttachmentsOf(null)} /> : null}
    </div>
  );
}
